import { readFileSync } from "node:fs";
import { compileSchema } from "./src/compile.js";
const lines = readFileSync("test/fixtures/jsonschemabench/sample.jsonl", "utf8").split("\n").filter(Boolean);
for (const l of lines) { const r = JSON.parse(l); if (r.id === process.argv[2]) { console.log(JSON.stringify(r.schema).slice(0, 1500)); console.log(compileSchema(r.schema).toGbnf().slice(0, 5000)); } }
