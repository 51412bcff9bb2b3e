/**
 * Writes docs/chat-templates.md: for each chat template in llama.cpp's `models/templates/` (cloned from the source
 * node-llama-cpp ships), whether @huggingface/jinja renders it, whether it renders tool calls, the format
 * formatFromChatTemplate reads, and the exact texts the template renders for probe replies — the spec that
 * format implementations work from.
 *
 *   npm run templates:report             regenerate docs/chat-templates.md
 *   npm run templates:report -- --check  exit 1 when the committed file is stale
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ToolgramError } from "../src/errors.js";
import { formatFromProbe, type TemplateFormat } from "../src/templates/formatFromChatTemplate.js";
import { FORMAT_DESCRIPTIONS } from "../src/formats/descriptions.js";
import type { FormatName } from "../src/formats/FormatName.js";
import { KNOWN_FORMATS } from "../src/templates/knownFormats.js";
import { probeTemplate, PROBE, type TemplateProbe } from "../src/templates/probeTemplate.js";
import { llamaCppSource, type LlamaCppSource } from "../src/testing/llamaCppSource.js";
import { OUTPUTS_DIR, type ChatOutputCase } from "./extract-chat-outputs.js";

export const REPORT_PATH = fileURLToPath(new URL("../docs/chat-templates.md", import.meta.url));

/** One template's outcome. */
export interface TemplateOutcome {
  file: string;
  renders: boolean;
  rendersToolCalls: boolean;
  format?: TemplateFormat;
  probe?: TemplateProbe;
  /** Why it does not render, or renders no tool call, or is not recognised. */
  reason?: string;
}

/**
 * Features of Python's Jinja that @huggingface/jinja 0.5.11 lacks, by the error it throws and where the template
 * uses them (checked by running each construct in @huggingface/jinja; see test/templates).
 */
const ENGINE_GAPS: { error: RegExp; source?: RegExp; lacks: string }[] = [
  {
    error: /Unknown ObjectValue filter: string/,
    lacks: "the `string` filter on a mapping (`tool_call.arguments | string`)",
  },
  { error: /Unknown ArrayValue filter: min/, lacks: "the `min` filter" },
  { error: /Object keys must be strings: got IntegerValue/, lacks: "dict literals with integer keys (`{0: …}`)" },
  {
    error: /Cannot unpack non-iterable type: TupleValue/,
    lacks: "unpacking tuples in a for loop (`for a, b in [(…, …)]`)",
  },
  { error: /not a function/, source: /\.format\(/, lacks: "`str.format()`" },
  { error: /not a function/, source: /\.pop\(/, lacks: "`list.pop()`" },
  { error: /not a function/, source: /\.append\(/, lacks: "`list.append()`" },
  {
    error: /Cannot access property with non-string: got UndefinedValue/,
    lacks:
      "subscripting by an undefined key (Python's Jinja yields undefined; here an object parameter without `additionalProperties` reaches `basic_type_map[json_spec.type]`)",
  },
];

function diagnose(source: string, message: string): string {
  if (/\+ on undefined/.test(message) && /\bfunctions\b/.test(source) && !/\btools\b/.test(source)) {
    return `the template reads its own context variables (\`functions\`, \`datetime\`), not \`tools\`: "${message}"`;
  }
  const gap = ENGINE_GAPS.find((g) => g.error.test(message) && (g.source === undefined || g.source.test(source)));
  return gap ? `@huggingface/jinja lacks ${gap.lacks}: "${message}"` : message;
}

export function judgeTemplate(file: string, source: string): TemplateOutcome {
  let probe: TemplateProbe;
  try {
    probe = probeTemplate(source);
  } catch (e) {
    const message =
      e instanceof ToolgramError ? e.message.replace(/^the chat template fails to render: /, "") : String(e);
    return { file, renders: false, rendersToolCalls: false, reason: diagnose(source, message) };
  }
  if (probe.oneCall === undefined) {
    const why =
      probe.toolCallsError !== undefined
        ? diagnose(source, probe.toolCallsError.replace(/^the chat template fails to render: /, ""))
        : source.includes("tool_calls")
          ? "the assistant turn does not show the tool call"
          : "the template never reads `tool_calls` (a model's calls would be plain content)";
    return { file, renders: true, rendersToolCalls: false, probe, reason: why };
  }
  try {
    return { file, renders: true, rendersToolCalls: true, probe, format: formatFromProbe(probe) };
  } catch (e) {
    return { file, renders: true, rendersToolCalls: true, probe, reason: e instanceof Error ? e.message : String(e) };
  }
}

export function judgeTemplates(src: LlamaCppSource): TemplateOutcome[] {
  const dir = join(src.dir, "models", "templates");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jinja"))
    .sort()
    .map((f) => judgeTemplate(f, readFileSync(join(dir, f), "utf8")));
}

/** A string as an exact, escaped literal (JSON: `\n`, `\"`, non-ASCII kept). */
const lit = (s: string): string => JSON.stringify(s);
const code = (s: string): string => `\`\` ${lit(s)} \`\``;

/** How many real outputs with calls a section shows (the fixture file has them all). */
const REAL_OUTPUTS_SHOWN = 6;

/**
 * llama.cpp's own parser cases for the template (test/fixtures/chat-outputs): what models actually write, which
 * can differ from the template's rendering of history (gpt-oss's `<|constrain|>json`, a missing opening tag).
 */
function realOutputs(file: string): string[] {
  const path = join(OUTPUTS_DIR, file.replace(/\.jinja$/, ".json"));
  if (!existsSync(path)) return [];
  const cases = (JSON.parse(readFileSync(path, "utf8")) as { cases: ChatOutputCase[] }).cases;
  const withCalls = cases.filter((c) => (c.expect?.toolCalls.length ?? 0) > 0 && !("is_partial" in c.settings));
  const out = [
    `llama.cpp's parser cases for this template: ${cases.length} model outputs, ${withCalls.length} complete ones with calls ` +
      `(test/fixtures/chat-outputs/${file.replace(/\.jinja$/, ".json")}, from tests/test-chat.cpp)` +
      (withCalls.length ? ":" : "."),
    "",
  ];
  if (withCalls.length === 0) return out;
  out.push("```text");
  const seen = new Set<string>();
  for (const c of withCalls) {
    if (seen.size >= REAL_OUTPUTS_SHOWN || seen.has(c.text)) continue;
    seen.add(c.text);
    const calls = (c.expect?.toolCalls ?? []).map((k) => `${k.name}(${k.arguments})`).join(", ");
    out.push(
      `line ${c.line}: ${lit(c.text)}`,
      `  → ${calls}${c.expect?.reasoning ? ` with reasoning ${lit(c.expect.reasoning)}` : ""}`,
    );
  }
  out.push("```", "");
  return out;
}

function section(o: TemplateOutcome): string {
  const out: string[] = [`### ${o.file}`, ""];
  if (!o.renders) {
    out.push(`Does not render with @huggingface/jinja: ${o.reason}`, "", ...realOutputs(o.file));
    return out.join("\n");
  }
  const p = o.probe as TemplateProbe;
  out.push(
    `- generation prompt: ${code(p.generationPrompt)}; with \`enable_thinking: false\`: ${code(p.generationPromptNoThinking)}`,
  );
  out.push(`- content-only reply: ${code(p.content.text)}`);
  if (p.content.promptMismatch)
    out.push(`- the history does not repeat the generation prompt's tail ${code(p.content.promptMismatch)}`);
  if (p.contentWithReasoning)
    out.push(`- reply with reasoning (\`${p.reasoningField}\`): ${code(p.contentWithReasoning.text)}`);
  if (!o.rendersToolCalls) {
    out.push(`- **renders no tool call**: ${o.reason}`, "", ...realOutputs(o.file));
    return out.join("\n");
  }
  const f = o.format;
  if (f === undefined) {
    out.push(`- **tool calls not recognised**: ${o.reason}`);
  } else {
    const aliases = f.aliases.length ? ` (aliases: ${f.aliases.join(", ")})` : "";
    const status = f.implemented
      ? " — implemented in toolgram today, this exact layout"
      : " — toolgram's format of that name, but this template's layout differs from it (see the markers)";
    out.push(`- format: **${f.format}**${status}${aliases}`);
    const r = f.reasoningMarkers;
    out.push(
      `- reasoning: **${f.reasoning}**` +
        (f.reasoning === "none"
          ? ""
          : `; start ${code(r.start)}, end before calls ${code(r.end)}` +
            (r.endBeforeContent !== undefined ? `, end before content ${code(r.endBeforeContent)}` : "") +
            (r.inferred ? " (inferred from the generation prompts; the template never shows past reasoning)" : "")),
    );
    const m = f.markers;
    out.push(
      `- arguments passed to the template as ${f.argumentsAs === "object" ? "objects" : "JSON text"}; written as ${m.arguments}${f.singleCall ? "; **one call per turn** (a second call is not rendered)" : ""}`,
    );
    out.push("", "| marker | exact text |", "| --- | --- |");
    const rows: [string, string | undefined][] = [
      ["before the calls (no reasoning)", m.beforeCalls],
      ["section start", m.sectionStart],
      ["call open (up to the name)", m.callOpen],
      ["call (skeleton)", m.skeleton],
      ["call close (after the arguments)", m.callClose],
      ["between calls", m.separator],
      ["section end", m.sectionEnd],
      [
        "argument open / middle / close",
        m.argumentMarkers
          ? `${lit(m.argumentMarkers.open)} / ${lit(m.argumentMarkers.middle)} / ${lit(m.argumentMarkers.close)}`
          : undefined,
      ],
      ["turn end (content reply)", p.turnEnd],
    ];
    for (const [k, v] of rows)
      if (v !== undefined)
        out.push(`| ${k} | ${k.startsWith("argument") ? v.replaceAll("|", "\\|") : lit(v).replaceAll("|", "\\|")} |`);
  }
  out.push("", "Exact assistant turns (after the generation prompt), as JSON strings:", "", "```text");
  const turns: [string, { text: string } | undefined][] = [
    ["1 call", p.oneCall],
    ["2 calls", p.twoCalls],
    ["1 call + reasoning", p.oneCallWithReasoning],
    ["2 calls + reasoning", p.twoCallsWithReasoning],
    ["typed arguments", p.typedCall],
  ];
  for (const [k, t] of turns) if (t) out.push(`${k}: ${lit(t.text)}`);
  if (p.toolResult !== undefined) out.push(`tool result: ${lit(p.toolResult)}`);
  out.push("```", "");
  out.push(...realOutputs(o.file));
  return out.join("\n");
}

export function renderReport(src: LlamaCppSource, outcomes: TemplateOutcome[]): string {
  const renders = outcomes.filter((o) => o.renders);
  const calls = outcomes.filter((o) => o.rendersToolCalls);
  const named = calls.filter((o) => o.format !== undefined);
  const formats = [...new Set(named.map((o) => (o.format as TemplateFormat).format))].sort();
  const lines: string[] = [
    "# Chat templates: tool-call formats read from the templates themselves",
    "",
    "<!-- generated by `npm run templates:report`; do not edit by hand -->",
    "",
    `Source: llama.cpp's \`models/templates/\` (${outcomes.length} templates) at commit \`${src.commit}\` (tag ${src.tag}, the source`,
    "node-llama-cpp 3.21.1 ships; MIT). Each template is rendered with `@huggingface/jinja` on probe conversations",
    `(\`src/templates/probeTemplate.ts\`): a user turn ${lit(PROBE.user)}, then an assistant turn with content, with one`,
    `and two tool calls (\`${PROBE.functions.join("`, `")}\`, string arguments \`${PROBE.args.join("`, `")}\` = ${PROBE.values.map(lit).join(", ")}, ids \`${PROBE.callIds.join("`, `")}\`),`,
    `with reasoning ${lit(PROBE.reasoning)}, with typed arguments (${lit(JSON.stringify(PROBE.typedArgs))}), and a tool result. The`,
    "format is read from the markers around those needles (`formatFromChatTemplate`), never from the template's text.",
    "`bos_token` and `eos_token` are empty; the date is fixed. Under each template, llama.cpp's own parser cases for it",
    "(real model outputs with the calls they parse to, `test/fixtures/chat-outputs/`) show where models write other",
    "than the template renders history.",
    "",
    `**Summary:** ${renders.length} of ${outcomes.length} render with @huggingface/jinja; ${calls.length} render tool calls; ` +
      `${named.length} of those get a format name (${formats.length} formats: ${formats.join(", ")}).`,
    "",
    "| template | renders | tool calls | format | reasoning | note |",
    "| --- | --- | --- | --- | --- | --- |",
  ];
  for (const o of outcomes) {
    const f = o.format;
    const note =
      !o.renders || !o.rendersToolCalls || f === undefined ? (o.reason ?? "") : f.singleCall ? "one call per turn" : "";
    lines.push(
      `| [${o.file}](#${o.file
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, "")
        .replace(
          / /g,
          "-",
        )}) | ${o.renders ? "yes" : "no"} | ${o.rendersToolCalls ? "yes" : "no"} | ${f ? f.format + (f.implemented ? " ✓" : "") : ""} | ${f ? f.reasoning : ""} | ${note.replaceAll("|", "\\|").replaceAll("\n", " ")} |`,
    );
  }
  lines.push("", "✓ = toolgram implements the format today, with this exact layout.", "");
  lines.push("## Formats", "", "| format | aliases | families | templates |", "| --- | --- | --- | --- |");
  // the formats a template layout names, in the matchers' order; aliases and families are the descriptions'
  for (const name of Object.keys(KNOWN_FORMATS) as FormatName[]) {
    const d = FORMAT_DESCRIPTIONS[name];
    const users = named
      .filter((o) => (o.format as TemplateFormat).format === name)
      .map((o) => o.file.replace(/\.jinja$/, ""));
    lines.push(`| ${name} | ${d.aliases.join(", ")} | ${d.family.replaceAll("|", "\\|")} | ${users.join(", ")} |`);
  }
  lines.push("", "## Templates", "");
  for (const o of outcomes) lines.push(section(o));
  return lines.join("\n").replace(/\n+$/, "\n");
}

async function main(): Promise<number> {
  const src = await llamaCppSource();
  if (src === undefined) {
    process.stderr.write("llama.cpp's source is not available (node-llama-cpp or git missing): nothing to report.\n");
    return 1;
  }
  const text = renderReport(src, judgeTemplates(src));
  if (process.argv.includes("--check")) {
    const current = readFileSync(REPORT_PATH, "utf8");
    if (current !== text) {
      process.stderr.write("docs/chat-templates.md is stale: run npm run templates:report\n");
      return 1;
    }
    return 0;
  }
  writeFileSync(REPORT_PATH, text);
  process.stdout.write(`wrote ${REPORT_PATH}\n`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
