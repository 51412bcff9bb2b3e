import { createWriteStream, statSync, writeFileSync } from "node:fs";
import { DATASET_CODES, type DatasetIssue } from "../../dataset/DatasetIssue.js";
import type { RowFormat } from "../../dataset/Conversation.js";
import { rewriteRowCanonical } from "../../dataset/rewriteRow.js";
import type { DatasetReport } from "../../dataset/validateDataset.js";
import { validateDatasetFile } from "../../dataset/validateDatasetFile.js";
import type { JsonValue } from "../../json.js";

export const validateDatasetUsage = `toolgram validate-dataset FILE [--input auto|openai|qwen3|sharegpt|llamafactory] [--drift error|warning]
                         [--json] [--receipt FILE] [--fix OUT.jsonl] [--no-parallel]
  Checks a function-calling fine-tuning set (JSONL, or a JSON array) against the tool schemas it declares.
  Exit code 1 when any error is found, 2 on bad usage.`;

const FORMATS = new Set(["auto", "openai", "qwen3", "sharegpt", "llamafactory"]);

function opt(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

/** The human report: counts per code, then the first examples of each. */
export function formatReport(r: DatasetReport, examplesPerCode = 3): string {
  const lines: string[] = [];
  const s = r.stats;
  lines.push(
    `${s.rows} rows, ${s.assistantTurns} assistant turns (${s.callTurns} with calls, ${s.parallelTurns} parallel, ${s.noCallTurns} without), ${s.toolCalls} calls, ${s.toolsDeclared} tools declared`,
  );
  lines.push(`${r.errors} error(s), ${r.warnings} warning(s)`);
  const byCode = new Map<string, DatasetIssue[]>();
  for (const i of [...r.issues, ...r.datasetIssues]) byCode.set(i.code, [...(byCode.get(i.code) ?? []), i]);
  for (const [code, n] of Object.entries(r.counts).sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))) {
    const ex = byCode.get(code) ?? [];
    lines.push(`\n${code} × ${n} — ${DATASET_CODES[code as keyof typeof DATASET_CODES]}`);
    for (const i of ex.slice(0, examplesPerCode)) {
      const where = [
        i.row !== undefined ? `line ${i.row}` : "",
        i.messageIndex !== undefined ? `message ${i.messageIndex}` : "",
        i.pointer ? i.pointer : "",
      ]
        .filter(Boolean)
        .join(", ");
      lines.push(`  ${i.severity}: ${where ? `${where}: ` : ""}${i.message}`);
    }
  }
  return lines.join("\n");
}

export async function validateDatasetCommand(argv: string[]): Promise<number> {
  const file = argv.find(
    (a, i) => !a.startsWith("--") && !["--input", "--drift", "--receipt", "--fix"].includes(argv[i - 1]),
  );
  const input = opt(argv, "--input") ?? "auto";
  const drift = opt(argv, "--drift") ?? "warning";
  if (!file || argv.includes("--help")) {
    process.stderr.write(`${validateDatasetUsage}\n`);
    return file ? 0 : 2;
  }
  if (!FORMATS.has(input) || (drift !== "error" && drift !== "warning")) {
    process.stderr.write(
      `toolgram: INVALID_OPTION: --input must be one of ${[...FORMATS].join(", ")}; --drift error|warning\n`,
    );
    return 2;
  }
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    process.stderr.write(`toolgram: INVALID_INPUT: cannot read ${file}\n`);
    return 2;
  }
  const fixOut = opt(argv, "--fix");
  const fixStream = fixOut ? createWriteStream(fixOut) : undefined;
  const leftOut: string[] = [];
  const tty = process.stderr.isTTY;
  let lastDraw = 0;
  const report = await validateDatasetFile(file, {
    input: input as RowFormat | "auto",
    drift: drift as "error" | "warning",
    parallel: !argv.includes("--no-parallel"),
    onProgress: tty
      ? (bytes) => {
          const now = Date.now();
          if (now - lastDraw < 100) return;
          lastDraw = now;
          const pct = size ? Math.min(100, (100 * bytes) / size) : 100;
          const bar = "#".repeat(Math.round(pct / 4)).padEnd(25, ".");
          process.stderr.write(`\r[${bar}] ${pct.toFixed(0)}%`);
        }
      : undefined,
    onRow: fixStream
      ? (o, text, value) => {
          const blocking = o.issues.filter((i) => i.code !== "FORMAT_DRIFT");
          if (blocking.length || value === undefined || !o.conversation) {
            leftOut.push(`row ${o.row}: ${[...new Set(blocking.map((i) => i.code))].join(", ") || "unreadable"}`);
            return;
          }
          const fixed = o.issues.length
            ? rewriteRowCanonical(value as JsonValue, o.conversation)
            : JSON.parse(text ?? "null");
          fixStream.write(`${JSON.stringify(fixed)}\n`);
        }
      : undefined,
  });
  if (tty) process.stderr.write(`\r${" ".repeat(40)}\r`);
  if (fixStream) await new Promise<void>((res) => fixStream.end(res));
  const receiptPath = opt(argv, "--receipt");
  if (receiptPath) writeFileSync(receiptPath, `${JSON.stringify(report.receipt, null, 2)}\n`);
  if (argv.includes("--json")) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else process.stdout.write(`${formatReport(report)}\n`);
  if (fixOut) {
    process.stderr.write(
      `fix: ${report.stats.rows - leftOut.length} row(s) written to ${fixOut}, ${leftOut.length} left out\n`,
    );
    for (const l of leftOut.slice(0, 50)) process.stderr.write(`  left out ${l}\n`);
    if (leftOut.length > 50) process.stderr.write(`  … and ${leftOut.length - 50} more\n`);
  }
  return report.errors > 0 ? 1 : 0;
}
