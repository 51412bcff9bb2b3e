import { createWriteStream } from "node:fs";
import { readConversation, RowFormatError } from "../../dataset/readConversation.js";
import { readRows } from "../../dataset/readRows.js";
import { convertConversation, type ConvertTarget } from "../../dataset/rewriteRow.js";
import type { RowFormat } from "../../dataset/Conversation.js";

export const convertUsage = `toolgram convert FILE --to qwen3|openai|sharegpt [--input auto|openai|qwen3|sharegpt|llamafactory] [-o OUT.jsonl]
  Converts a function-calling dataset between row formats (JSONL out). Rows that cannot be read are reported and skipped.`;

export async function convertCommand(argv: string[]): Promise<number> {
  const flagValue = (n: string): string | undefined => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : undefined);
  const to = flagValue("--to");
  const input = flagValue("--input") ?? "auto";
  const outPath = flagValue("-o");
  const file = argv.find((a, i) => !a.startsWith("-") && !["--to", "--input", "-o"].includes(argv[i - 1]));
  if (!file || !to || !["qwen3", "openai", "sharegpt"].includes(to)) {
    process.stderr.write(`${convertUsage}\n`);
    return 2;
  }
  const out = outPath ? createWriteStream(outPath) : process.stdout;
  let bad = 0;
  let n = 0;
  for await (const { line, text } of readRows(file)) {
    try {
      const conv = readConversation(JSON.parse(text), input === "auto" ? undefined : (input as RowFormat));
      out.write(`${JSON.stringify(convertConversation(conv, to as ConvertTarget))}\n`);
      n++;
    } catch (e) {
      if (!(e instanceof RowFormatError) && !(e instanceof SyntaxError)) throw e;
      bad++;
      process.stderr.write(`row ${line}: skipped: ${e.message}\n`);
    }
  }
  if (outPath) await new Promise<void>((res) => (out as ReturnType<typeof createWriteStream>).end(res));
  process.stderr.write(`${n} row(s) converted to ${to}, ${bad} skipped\n`);
  return bad ? 1 : 0;
}
