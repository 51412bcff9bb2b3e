import { ToolCallStream } from "./src/parser/ToolCallStream.js";
import { TOOLS } from "./test/parser/tools.js";
const call = '<tool_call>\n{"name": "search", "arguments": {"query": "' + "x".repeat(200) + '", "limit": 1}}\n</tool_call>\n';
const unit = "Some text with < and > and <tool_ but no call. " + call;
const text = unit.repeat(Math.ceil(1_000_000 / unit.length)).slice(0, 1_000_000);
for (let k = 0; k < 3; k++) {
const t0 = performance.now();
const s = new ToolCallStream({ tools: TOOLS });
let n = 0;
for (let i = 0; i < text.length; i++) n += s.push(text[i]).length;
s.end();
console.log("stream 1M x 1B", (performance.now() - t0).toFixed(0), "ms", n, "events");
}
