import { writeFileSync } from "node:fs";
import { compileSchema, compileTools, type ToolCompileOptions } from "../../compile.js";
import type { CompiledGrammar } from "../../CompiledGrammar.js";
import { ToolgramError } from "../../errors.js";
import { FORMAT_NAMES } from "../../formats/descriptions.js";
import type { WhitespaceOption } from "../../options.js";
import { processIO, UsageError, type CliIO } from "../CliIO.js";
import { formatWarning } from "../formatError.js";
import { parseFlags } from "../parseFlags.js";
import { toolOptionsFromTemplate } from "../../templates/toolOptionsFromTemplate.js";
import { vocabularyFromGguf } from "../../vocab/vocabularyFromGguf.js";

export const compileUsage = `Usage: toolgram compile FILE|- [options]

Compiles a tool list (OpenAI, MCP, <tools> text block...) into a grammar for one assistant turn.

  --emit gbnf|regex|json-schema|xgrammar-ebnf|structural-tag|lark   output (default gbnf; xgrammar-ebnf,
                                 structural-tag (XGrammar's JSON) or lark (llguidance, XGrammar >= 0.2.6) for vLLM / SGLang)
  --choice auto|required|none|NAME  which calls are allowed (default auto)
  --parallel true|false|N         how many calls (default true: unbounded)
  --free-text / --no-free-text    text before the calls (default: on for auto, off otherwise)
  --strict / --no-strict          refuse what cannot be enforced exactly (default) / over-approximate with warnings
  --format F                      wire format: ${FORMAT_NAMES.join(", ")} (default qwen3), or an alias
  --gguf MODEL.gguf               read the format and reasoning block from the model's chat template
                                  (tokenizer.chat_template); --format and --reasoning override it
  --reasoning none|optional|required  a reasoning block before the calls (default: the format's or the template's)
  --whitespace compact|N          JSON spelling: the model's own (default), or up to N whitespace characters per gap
  --on-refused-tool error|drop|relax  a tool that cannot be enforced: refuse the set (default), leave the tool
                                  out, or compile it with --no-strict; dropped and relaxed tools are warned about
  --property-order declared|any   object keys in declaration order (default), or in any order, each once
                                  (exact for JSON values read regardless of order; objects with more than 10
                                  declared properties are then refused)
  --json                          FILE is one JSON Schema: compile a bare JSON value instead of tool calls
  -o, --out FILE                  write to FILE instead of standard output
`;

const FLAGS = {
  emit: { type: "string" },
  choice: { type: "string" },
  parallel: { type: "string" },
  "free-text": { type: "boolean" },
  "no-free-text": { type: "boolean" },
  strict: { type: "boolean" },
  "no-strict": { type: "boolean" },
  format: { type: "string" },
  gguf: { type: "string" },
  reasoning: { type: "string" },
  whitespace: { type: "string" },
  "on-refused-tool": { type: "string" },
  "property-order": { type: "string" },
  json: { type: "boolean" },
  out: { type: "string", short: "o" },
  help: { type: "boolean", short: "h" },
} as const;

/** `toolgram compile`: exit 0 on success; ToolgramErrors and usage errors propagate to main (exit 2). */
export async function compileCommand(argv: string[], io: CliIO = processIO): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS);
  if (values.help) {
    io.stdout(compileUsage);
    return 0;
  }
  if (positionals.length !== 1)
    throw new UsageError(`compile needs exactly one input file (or - for standard input)\n\n${compileUsage}`);
  const emit = (values.emit as string | undefined) ?? "gbnf";
  if (!["gbnf", "regex", "json-schema", "xgrammar-ebnf", "structural-tag", "lark"].includes(emit))
    throw new UsageError(`--emit must be gbnf, regex, json-schema, xgrammar-ebnf, structural-tag or lark, got ${emit}`);
  if (values.strict && values["no-strict"]) throw new UsageError("--strict and --no-strict contradict each other");
  if (values["free-text"] && values["no-free-text"])
    throw new UsageError("--free-text and --no-free-text contradict each other");

  const text = await io.readText(positionals[0]);
  const strict = !values["no-strict"];
  const whitespace = parseWhitespace(values.whitespace as string | undefined);
  const order = values["property-order"] as string | undefined;
  if (order !== undefined && order !== "declared" && order !== "any")
    throw new UsageError(`--property-order must be declared or any, got ${order}`);
  const propertyOrder = (order ?? "declared") as "declared" | "any";
  let compiled: CompiledGrammar;
  if (values.json) {
    compiled = compileSchema(parseJson(text, positionals[0]), { strict, whitespace, propertyOrder });
  } else {
    const options: ToolCompileOptions = { strict, whitespace, propertyOrder };
    if (values.choice !== undefined) options.toolChoice = values.choice as string;
    if (values.parallel !== undefined) options.parallel = parseParallel(values.parallel as string);
    if (values["free-text"]) options.freeText = true;
    if (values["no-free-text"]) options.freeText = false;
    if (values.gguf !== undefined) Object.assign(options, await ggufToolOptions(values.gguf as string));
    if (values.format !== undefined) {
      options.format = values.format as ToolCompileOptions["format"];
      // the template's reasoning markers belong to the template's format
      delete options.reasoning;
      delete options.reasoningMarkers;
    }
    const onRefused = values["on-refused-tool"] as string | undefined;
    if (onRefused !== undefined) {
      if (!["error", "drop", "relax"].includes(onRefused))
        throw new UsageError(`--on-refused-tool must be error, drop or relax, got ${onRefused}`);
      options.onRefusedTool = onRefused as ToolCompileOptions["onRefusedTool"];
    }
    if (values.reasoning !== undefined) options.reasoning = values.reasoning as ToolCompileOptions["reasoning"];
    compiled = compileTools(readToolsText(text), options);
  }
  for (const w of compiled.warnings) io.stderr(`${formatWarning(w)}\n`);

  const output =
    emit === "gbnf"
      ? compiled.toGbnf()
      : emit === "regex"
        ? compiled.toRegex()
        : emit === "xgrammar-ebnf"
          ? compiled.toXGrammarEbnf()
          : emit === "structural-tag"
            ? JSON.stringify(compiled.toStructuralTag(), null, 2)
            : emit === "lark"
              ? compiled.toLark()
              : JSON.stringify(compiled.toJsonSchema(), null, 2);
  const out = output.endsWith("\n") ? output : `${output}\n`;
  if (values.out !== undefined) writeFileSync(values.out as string, out);
  else io.stdout(out);
  return 0;
}

/** The format and reasoning options the GGUF's chat template implies. */
async function ggufToolOptions(path: string): Promise<ToolCompileOptions> {
  const vocab = await vocabularyFromGguf(path);
  if (vocab.chatTemplate === undefined) throw new UsageError(`${path} has no tokenizer.chat_template; pass --format`);
  const t = toolOptionsFromTemplate(vocab.chatTemplate);
  return {
    format: t.format,
    reasoning: t.reasoning,
    ...(t.reasoningMarkers ? { reasoningMarkers: t.reasoningMarkers } : {}),
  };
}

/** JSON when the text is JSON; otherwise the text itself (a `<tools>` block is read by normalizeTools). */
function readToolsText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new ToolgramError("INVALID_INPUT", `${file} is not JSON: ${(e as Error).message}`);
  }
}

function parseParallel(v: string): boolean | number {
  if (v === "true") return true;
  if (v === "false") return false;
  if (/^[1-9][0-9]*$/.test(v)) return Number(v);
  throw new UsageError(`--parallel must be true, false or a positive integer, got ${v}`);
}

function parseWhitespace(v: string | undefined): WhitespaceOption {
  if (v === undefined || v === "compact") return "compact";
  if (/^[1-9][0-9]*$/.test(v)) return { flexible: { maxRun: Number(v) } };
  throw new UsageError(`--whitespace must be compact or a positive integer (the longest whitespace run), got ${v}`);
}
