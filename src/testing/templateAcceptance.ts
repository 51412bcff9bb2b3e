import { compileTools } from "../compile.js";
import { withoutCallTurnEnd } from "../formats/callTurnEnd.js";
import { contentBeforeCalls } from "../formats/layoutText.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import type { ReasoningMode } from "../formats/FormatDescription.js";
import type { JsonObject } from "../json.js";
import { parseToolCalls } from "../parser/parseToolCalls.js";
import { renderToolCalls, type CallToRender } from "../parser/renderToolCalls.js";
import { formatFromChatTemplate, type TemplateFormat } from "../templates/formatFromChatTemplate.js";
import { PROBE, PROBE_CALLS, PROBE_TOOLS, type ProbedTurn } from "../templates/probeTemplate.js";

/**
 * The acceptance check of one chat template (issue: every model family's own format): the format read from the
 * template is described; each probe turn the template renders (1 and 2 calls, and with reasoning where the template
 * shows it) is accepted by the grammar compiled for the probe tools from the assistant turn's start (the text after
 * the generation prompt, up to the turn's end marker), parses strictly into exactly the probe's calls (and its
 * reasoning), and renders back byte for byte.
 */
export interface TemplateAcceptance {
  template: string;
  /** The format name formatFromChatTemplate gives ("" when it gives none). */
  format: string;
  /**
   * `pass`: every case passes; `fail`: a template that renders tool calls and does not pass (`reason` says the first
   * failing step); `no-calls`: the template renders no tool call; `not-rendered`: @huggingface/jinja cannot render
   * it (`reason` says which feature it lacks). The last two are listed but out of the pass/fail count.
   */
  status: "pass" | "fail" | "no-calls" | "not-rendered";
  reason: string;
  /** The cases checked, each with its verdict. */
  cases: { name: string; ok: boolean; reason: string }[];
}

interface Case {
  name: string;
  turn: ProbedTurn | undefined;
  calls: readonly { name: string; arguments: JsonObject }[];
  reasoning: boolean;
}

/** Runs the acceptance check on one template's source. Never throws: every failure is a status with a reason. */
export function checkTemplateAcceptance(template: string, source: string): TemplateAcceptance {
  let t: TemplateFormat;
  try {
    t = formatFromChatTemplate(source);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const code = (e as { code?: string }).code;
    // a template that renders tool calls but whose layout is unknown is a failure; one that renders none is out of scope
    const status =
      /fails to render|does not parse/.test(message) || code === "INVALID_TEMPLATE" || code === "TEMPLATE_RENDER"
        ? "not-rendered"
        : code === "UNRECOGNIZED_TEMPLATE" && !/renders no tool call/.test(message)
          ? "fail"
          : "no-calls";
    return { template, format: "", status, reason: message, cases: [] };
  }
  return checkTemplateFormat(template, t);
}

/** The acceptance check of a template's reading (formatFromChatTemplate's, or one with its description derived). */
export function checkTemplateFormat(template: string, t: TemplateFormat): TemplateAcceptance {
  const fail = (reason: string, cases: TemplateAcceptance["cases"] = []): TemplateAcceptance => ({
    template,
    format: t.format,
    status: "fail",
    reason,
    cases,
  });
  const d: FormatDescription = t.description;
  const p = t.probe;
  const cases: Case[] = [
    { name: "1 call", turn: p.oneCall, calls: PROBE_CALLS.one, reasoning: false },
    { name: "2 calls", turn: t.singleCall ? undefined : p.twoCalls, calls: PROBE_CALLS.two, reasoning: false },
  ];
  if (t.reasoning !== "none" && !t.reasoningMarkers.inferred) {
    cases.push({ name: "1 call + reasoning", turn: p.oneCallWithReasoning, calls: PROBE_CALLS.one, reasoning: true });
    if (!t.singleCall)
      cases.push({
        name: "2 calls + reasoning",
        turn: p.twoCallsWithReasoning,
        calls: PROBE_CALLS.two,
        reasoning: true,
      });
  }
  const results = cases.filter((c) => c.turn !== undefined).map((c) => ({ name: c.name, ...checkCase(t, d, c) }));
  const bad = results.find((r) => !r.ok);
  if (bad !== undefined) return fail(`${bad.name}: ${bad.reason}`, results);
  return { template, format: t.format, status: "pass", reason: "", cases: results };
}

function checkCase(t: TemplateFormat, d: FormatDescription, c: Case): { ok: boolean; reason: string } {
  // a call turn's own end-of-turn token (Functionary's `<|eom_id|>`) is no more part of the reply than a text turn's
  const text = withoutCallTurnEnd(d, (c.turn as ProbedTurn).body);
  const markers = { open: t.reasoningMarkers.start, close: t.reasoningMarkers.end };
  // with reasoning: the template's own mode and markers; without: a block the template writes empty is optional,
  // and a block the generation prompt opened (start "") does not show in the history, so there is none
  const mode: ReasoningMode = c.reasoning
    ? t.reasoning
    : t.reasoning === "none" || markers.open === ""
      ? "none"
      : "optional";
  // "none" said outright: a derived description's default is its template's mode, `required` where the generation
  // prompt opens the block, which the history's turns do not show
  const reasoningOptions =
    mode === "none" ? { reasoning: "none" as const } : { reasoning: mode, reasoningMarkers: markers };
  let accepted: boolean;
  try {
    const g = compileTools(PROBE_TOOLS, { format: t.description, ...reasoningOptions });
    accepted = g.accepts(text);
  } catch (e) {
    return { ok: false, reason: `compileTools refused: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!accepted) return { ok: false, reason: `the grammar rejects the template's render ${JSON.stringify(text)}` };
  const r = parseToolCalls(text, { tools: PROBE_TOOLS, format: t.description, mode: "strict", ...reasoningOptions });
  if (r.issues.length > 0)
    return { ok: false, reason: `strict parse issues ${r.issues.map((i) => i.code).join(", ")}` };
  const got = r.calls.map((x) => ({ name: x.name, arguments: x.arguments }));
  if (JSON.stringify(got) !== JSON.stringify(c.calls))
    return { ok: false, reason: `parsed calls ${JSON.stringify(got)}` };
  if (c.reasoning && r.reasoning !== PROBE.reasoning)
    return { ok: false, reason: `parsed reasoning ${JSON.stringify(r.reasoning)}` };
  const calls: CallToRender[] = r.calls.map((x) => ({
    name: x.name,
    arguments: x.arguments,
    ...(x.id !== undefined ? { id: x.id } : {}),
  }));
  let again: string;
  try {
    again = renderToolCalls(calls, t.description, {
      ...(r.reasoning !== undefined ? { reasoning: r.reasoning, reasoningMarkers: markers } : {}),
      content: contentBeforeCalls(d, r.content, calls.length),
    });
  } catch (e) {
    return { ok: false, reason: `renderToolCalls refused: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (again !== text) return { ok: false, reason: `re-rendered ${JSON.stringify(again)}` };
  return { ok: true, reason: "" };
}

/** The report: one line per template, for test output and docs. */
export function acceptanceTable(results: readonly TemplateAcceptance[]): string {
  const pass = results.filter((r) => r.status === "pass").length;
  const withCalls = results.filter((r) => r.status === "pass" || r.status === "fail").length;
  const none = results.filter((r) => r.status === "no-calls").length;
  const lines = [
    `${pass} of ${withCalls} templates that render tool calls pass; ${none} render no tool call; ${results.length - withCalls - none} do not render with @huggingface/jinja.`,
    "",
    "| template | format | status | cases passed | why |",
    "| --- | --- | --- | --- | --- |",
  ];
  const cases = (r: TemplateAcceptance): string =>
    r.cases.length === 0
      ? ""
      : `${r.cases.filter((c) => c.ok).length}/${r.cases.length} (${r.cases.map((c) => c.name).join(", ")})`;
  for (const r of results)
    lines.push(
      `| ${r.template} | ${r.format} | ${r.status} | ${cases(r)} | ${r.reason.replace(/\|/g, "\\|").replace(/\n/g, "\\n").slice(0, 300)} |`,
    );
  return lines.join("\n");
}
