/** Rewrites the formats table of docs/formats.md from the format descriptions (src/formats/formatsTable.ts). */
import { readFileSync, writeFileSync } from "node:fs";
import { FORMATS_TABLE_END, FORMATS_TABLE_START, formatsTable } from "../src/formats/formatsTable.js";

const url = new URL("../docs/formats.md", import.meta.url);
const page = readFileSync(url, "utf8");
const start = page.indexOf(FORMATS_TABLE_START);
const end = page.indexOf(FORMATS_TABLE_END);
if (start < 0 || end < start)
  throw new Error(`docs/formats.md lacks the markers ${FORMATS_TABLE_START} … ${FORMATS_TABLE_END}`);
writeFileSync(url, `${page.slice(0, start + FORMATS_TABLE_START.length)}\n${formatsTable()}\n${page.slice(end)}`);
