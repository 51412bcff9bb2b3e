import { createReadStream } from "node:fs";

export interface RawRow {
  /** 1-based line number where the row starts. */
  line: number;
  text: string;
}

/**
 * Streams the rows of a JSONL file, or the elements of a top-level JSON array, without holding the file in memory
 * (a JSON array is split by a small scanner that tracks strings and nesting depth). Blank lines are skipped.
 * `onBytes` reports progress.
 */
export async function* readRows(path: string, onBytes?: (bytesRead: number) => void): AsyncGenerator<RawRow> {
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 1 << 20 });
  let mode: "unknown" | "jsonl" | "array" = "unknown";
  let buf = "";
  let line = 1;
  let rowLine = 1;
  // array-mode scanner state
  let depth = 0;
  let inString = false;
  let escaped = false;
  let elem = "";
  let bytes = 0;
  for await (const chunk of stream as AsyncIterable<string>) {
    bytes += Buffer.byteLength(chunk);
    onBytes?.(bytes);
    let data = chunk;
    if (mode === "unknown") {
      buf += data;
      const first = buf.replace(/^\uFEFF/, "").trimStart();
      if (!first) continue;
      mode = first[0] === "[" ? "array" : "jsonl";
      data = buf.replace(/^\uFEFF/, "");
      buf = "";
    }
    if (mode === "jsonl") {
      buf += data;
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const text = buf.slice(0, nl).replace(/\r$/, "");
        buf = buf.slice(nl + 1);
        if (text.trim()) yield { line, text };
        line++;
      }
    } else {
      for (let i = 0; i < data.length; i++) {
        const c = data[i];
        if (c === "\n") line++;
        if (inString) {
          elem += c;
          if (escaped) escaped = false;
          else if (c === "\\") escaped = true;
          else if (c === '"') inString = false;
          continue;
        }
        if (depth === 0) {
          if (c === "[") depth = 1;
          continue;
        }
        if (depth === 1 && (c === "," || c === "]")) {
          if (elem.trim()) yield { line: rowLine, text: elem.trim() };
          elem = "";
          if (c === "]") depth = 0;
          continue;
        }
        if (depth === 1 && !elem.trim() && /\s/.test(c)) continue;
        if (depth === 1 && !elem) rowLine = line;
        elem += c;
        if (c === '"') inString = true;
        else if (c === "{" || c === "[") depth++;
        else if (c === "}" || c === "]") depth--;
      }
    }
  }
  if (mode === "jsonl" && buf.trim()) yield { line, text: buf.replace(/\r$/, "") };
  if (mode === "array" && elem.trim()) yield { line: rowLine, text: elem.trim() };
}
