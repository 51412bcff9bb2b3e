import { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "../../formats/descriptions.js";
import { ToolCallStream } from "../../parser/ToolCallStream.js";
import type { ParseIssue, ParseMode, ParseResult, ParserTool } from "../../parser/types.js";
import { normalizeTools } from "../../tools/normalizeTools.js";
import { processIO, UsageError, type CliIO } from "../CliIO.js";
import { parseFlags } from "../parseFlags.js";

export const parseUsage = `Usage: toolgram parse --tools TOOLS [options] [FILE|-] < output.txt

Reads the tool calls out of a model's reply (standard input, or FILE).

  --tools FILE                    the declared tools (OpenAI, MCP, bare {name, parameters}, or a <tools> block)
  --format F                      wire format: ${Object.keys(FORMAT_DESCRIPTIONS).join(", ")} (default qwen3)
  --mode strict|tolerant          canonical rendering only, or repair drifts (default tolerant)
  --additional-properties forbid|spec  undeclared argument keys: invalid (default, as compiled grammars) or allowed
  --stream                        read standard input as it arrives and print events as JSON lines

Prints the calls as JSON on standard output (with --stream: one event per line), issues on standard error (one per
line: code, [start,end) span, message). Exit code 0 when every call was read and is valid, 1 otherwise.
`;

const FLAGS = {
  tools: { type: "string" },
  format: { type: "string" },
  mode: { type: "string" },
  "additional-properties": { type: "string" },
  stream: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Chunk size for `--stream` when the whole input is already in memory (a file argument). */
const FILE_CHUNK = 64;

/** `toolgram parse`: exit 0 when all calls are read and valid, 1 when one is invalid or dropped. */
export async function parseCommand(argv: string[], io: CliIO = processIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS);
  if (values.help) {
    io.stdout(parseUsage);
    return 0;
  }
  if (typeof values.tools !== "string") throw new UsageError(`parse needs --tools FILE\n\n${parseUsage}`);
  if (positionals.length > 1) throw new UsageError(`parse reads one reply (a FILE or standard input)\n\n${parseUsage}`);
  const format = (values.format as string | undefined) ?? "qwen3";
  if (!Object.values(FORMAT_DESCRIPTIONS).some((d) => d.name === format || d.aliases.includes(format))) {
    throw new UsageError(`--format must be one of ${FORMAT_NAMES.join(", ")} (or an alias), got ${format}`);
  }
  const mode = (values.mode as string | undefined) ?? "tolerant";
  if (mode !== "strict" && mode !== "tolerant") throw new UsageError(`--mode must be strict or tolerant, got ${mode}`);
  const additional = (values["additional-properties"] as string | undefined) ?? "forbid";
  if (additional !== "forbid" && additional !== "spec")
    throw new UsageError(`--additional-properties must be forbid or spec, got ${additional}`);

  const tools = readTools(await io.readText(values.tools));
  const stream = new ToolCallStream({ tools, format, mode: mode as ParseMode, additionalProperties: additional });
  const input = positionals[0] ?? "-";
  let result: ParseResult;
  if (values.stream) {
    const emit = (events: unknown[]): void => {
      for (const e of events) io.stdout(`${JSON.stringify(e)}\n`);
    };
    if (input === "-" && io === processIO) {
      // events as the reply arrives, so `model | toolgram parse --stream` shows calls while they are written
      process.stdin.setEncoding("utf8");
      for await (const chunk of process.stdin) emit(stream.push(chunk as string));
    } else {
      const text = await io.readText(input);
      for (let i = 0; i < text.length; i += FILE_CHUNK) emit(stream.push(text.slice(i, i + FILE_CHUNK)));
    }
    emit(stream.flush());
    result = stream.end();
  } else {
    stream.push(await io.readText(input));
    result = stream.end();
    io.stdout(`${JSON.stringify(result.calls, null, 2)}\n`);
  }
  for (const i of result.issues) io.stderr(`${formatIssue(i)}\n`);
  return result.dropped > 0 || result.calls.some((c) => !c.valid) ? 1 : 0;
}

/** `CODE [start,end) message` (with the call index when the issue concerns a kept call). */
export function formatIssue(i: ParseIssue): string {
  const span = i.span ? ` [${i.span[0]},${i.span[1]})` : "";
  const call = i.callIndex !== undefined ? ` call ${i.callIndex}` : "";
  return `${i.code}${span}${call}: ${i.message}`;
}

/**
 * The tools of a tools file, normalized to `{ name, parameters }`: JSON in any shape tool ingestion reads (an array,
 * `{tools: [...]}`, OpenAI / MCP / Anthropic tools) or a text such as a `<tools>` block.
 */
export function readTools(text: string): ParserTool[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    v = text;
  }
  return normalizeTools(v, []).map((t) => ({ name: t.name, parameters: t.parameters }));
}
