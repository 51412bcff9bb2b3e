/** Rewrites the README's formats table from the format descriptions (src/formats/formatsTable.ts). */
import { readFileSync, writeFileSync } from "node:fs";
import { FORMATS_TABLE_END, FORMATS_TABLE_START, formatsTable } from "../src/formats/formatsTable.js";

const url = new URL("../README.md", import.meta.url);
const readme = readFileSync(url, "utf8");
const start = readme.indexOf(FORMATS_TABLE_START);
const end = readme.indexOf(FORMATS_TABLE_END);
if (start < 0 || end < start)
  throw new Error(`README.md lacks the markers ${FORMATS_TABLE_START} … ${FORMATS_TABLE_END}`);
writeFileSync(url, `${readme.slice(0, start + FORMATS_TABLE_START.length)}\n${formatsTable()}\n${readme.slice(end)}`);
