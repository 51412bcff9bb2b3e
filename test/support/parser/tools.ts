import { readFileSync } from "node:fs";
import type { ParserTool } from "../../../src/parser/types.js";

/** The tool set the parser tests and the output fixtures are written against. */
export const TOOLS: ParserTool[] = JSON.parse(
  readFileSync(new URL("../../fixtures/outputs/tools.json", import.meta.url), "utf8"),
) as ParserTool[];
