import { findNodeAtLocation, parse as parseJsonc, parseTree, type ParseError } from "jsonc-parser";
import {
  compileTools,
  FORMAT_NAMES,
  parseToolCalls,
  ToolgramError,
  type CompiledGrammar,
  type FormatName,
  type ParseResult,
  type ToolCompileOptions,
} from "../../src/index.js";
import { analyzeOutput, lineColumn } from "./analyzeOutput.js";
import { EXAMPLES } from "./examples.js";
import { decodeState, encodeState, type PlaygroundState } from "./permalink.js";
import type { FromWorker, ToWorker, TokenView } from "./protocol.js";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const toolsBox = $<HTMLTextAreaElement>("tools");
const backdrop = $("backdrop");
const outputBox = $<HTMLTextAreaElement>("output");
const formatSel = $<HTMLSelectElement>("format");
const choiceSel = $<HTMLSelectElement>("choice");
const parallelSel = $<HTMLSelectElement>("parallel");
const whitespaceSel = $<HTMLSelectElement>("whitespace");
const exampleSel = $<HTMLSelectElement>("example");

/** What tests and the benchmark read: when the page became usable, and the vocabulary's load time. */
const probe = { ready: false, readyMs: 0, compileMs: 0, vocabMs: 0, vocabLoaded: false, samples: 0, samplesOk: 0 };
(window as unknown as { __playground: typeof probe }).__playground = probe;

let compiled: CompiledGrammar | undefined;
let view: "gbnf" | "regex" | "jsonschema" = "gbnf";
let viewText = "";

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

function debounce(fn: () => void, ms: number): () => void {
  let t: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(t);
    t = setTimeout(fn, ms);
  };
}

// ---------- options ----------

for (const f of FORMAT_NAMES) formatSel.add(new Option(f, f));
for (const ex of EXAMPLES) exampleSel.add(new Option(ex.label, ex.id));
exampleSel.add(new Option("(your own)", ""));

function setChoiceOptions(names: readonly string[]): void {
  const current = choiceSel.value || "auto";
  choiceSel.replaceChildren(
    ...["auto", "required", "none"].map((c) => new Option(c, c)),
    ...names.map((n) => new Option(`only ${n}`, `tool:${n}`)),
  );
  choiceSel.value = [...choiceSel.options].some((o) => o.value === current) ? current : "auto";
}
setChoiceOptions([]);

function options(): ToolCompileOptions {
  const c = choiceSel.value;
  const p = parallelSel.value;
  const w = whitespaceSel.value;
  return {
    format: formatSel.value as FormatName,
    toolChoice: c.startsWith("tool:") ? { type: "function", function: { name: c.slice(5) } } : c,
    parallel: p === "true" ? true : p === "false" ? false : Number(p),
    whitespace: w === "compact" ? "compact" : { flexible: { maxRun: Number(w.split(":")[1]) } },
  };
}

// ---------- editor highlight ----------

function highlight(range?: { offset: number; length: number }): void {
  const text = toolsBox.value;
  if (!range) {
    backdrop.innerHTML = `${escapeHtml(text)}\n`;
    return;
  }
  const end = range.offset + Math.max(range.length, 1);
  backdrop.innerHTML = `${escapeHtml(text.slice(0, range.offset))}<mark data-testid="schema-path-mark">${escapeHtml(text.slice(range.offset, end)) || " "}</mark>${escapeHtml(text.slice(end))}\n`;
  const mark = backdrop.querySelector("mark")!;
  toolsBox.scrollTop = Math.max(0, mark.offsetTop - 60);
  backdrop.scrollTop = toolsBox.scrollTop;
}
toolsBox.addEventListener("scroll", () => (backdrop.scrollTop = toolsBox.scrollTop));

/** The text range of the value at a JSON Pointer, or of its deepest existing ancestor. */
function rangeOfPointer(text: string, pointer: string): { offset: number; length: number } | undefined {
  const tree = parseTree(text);
  if (!tree) return undefined;
  const segments =
    pointer === ""
      ? []
      : pointer
          .replace(/^#?\//, "")
          .split("/")
          .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  for (let n = segments.length; n >= 0; n--) {
    const path = segments.slice(0, n).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const node = findNodeAtLocation(tree, path);
    if (!node) continue;
    // a property's value: highlight the key too, so the line reads as the culprit
    const keyNode = node.parent?.type === "property" ? node.parent : node;
    return { offset: keyNode.offset, length: keyNode.length };
  }
  return undefined;
}

// ---------- compiling ----------

const resultBox = $("compile-result");

function recompile(): void {
  const text = toolsBox.value;
  let tools: unknown;
  try {
    tools = JSON.parse(text);
  } catch (e) {
    const errors: ParseError[] = [];
    parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true });
    const at = errors[0]?.offset ?? 0;
    const { line, column } = lineColumn(text, at);
    showCompileError("JSON", `line ${line}, column ${column}`, (e as Error).message);
    highlight({ offset: at, length: errors[0]?.length || 1 });
    return;
  }
  const t0 = performance.now();
  try {
    compiled = compileTools(tools, options());
  } catch (e) {
    compiled = undefined;
    if (e instanceof ToolgramError) {
      showCompileError(e.code, e.schemaPath ?? "", e.message);
      highlight(e.schemaPath !== undefined ? rangeOfPointer(text, e.schemaPath) : undefined);
    } else {
      showCompileError("ERROR", "", (e as Error).message);
      highlight();
    }
    renderView();
    analyzeNow();
    return;
  }
  probe.compileMs = performance.now() - t0;
  highlight();
  const names = compiled.tools.map((t) => t.name);
  setChoiceOptions(names);
  const warnings = compiled.warnings.length
    ? ` · ${compiled.warnings.length} warning${compiled.warnings.length > 1 ? "s" : ""}: ${compiled.warnings
        .slice(0, 3)
        .map((w) => escapeHtml(w.message))
        .join("; ")}`
    : "";
  resultBox.className = "result ok";
  resultBox.innerHTML = `✓ ${names.length} tool${names.length === 1 ? "" : "s"} compiled in ${probe.compileMs.toFixed(0)} ms · schemaHash <code>${compiled.schemaHash.slice(0, 12)}…</code>${warnings}`;
  renderView();
  analyzeNow();
  send({
    type: "grammar",
    tools,
    options: options(),
    required: choiceSel.value !== "auto" && choiceSel.value !== "none",
  });
  saveState();
}

function showCompileError(code: string, where: string, message: string): void {
  resultBox.className = "result bad";
  resultBox.innerHTML = `✗ <b data-testid="error-code">${escapeHtml(code)}</b>${where ? ` at <code data-testid="error-path">${escapeHtml(where || "/")}</code>` : ""}: ${escapeHtml(message)}`;
}

// ---------- grammar views ----------

const grammarBox = $("grammar");
function renderView(): void {
  if (!compiled) {
    viewText = "";
    grammarBox.textContent = "(no grammar: fix the tools first)";
    return;
  }
  try {
    viewText =
      view === "gbnf"
        ? compiled.toGbnf()
        : view === "regex"
          ? compiled.toRegex()
          : JSON.stringify(compiled.toJsonSchema(), null, 2);
  } catch (e) {
    viewText = "";
    grammarBox.textContent = `${e instanceof ToolgramError ? `${e.code}: ` : ""}${(e as Error).message}`;
    return;
  }
  grammarBox.textContent = viewText;
}
for (const b of document.querySelectorAll<HTMLButtonElement>(".tabs button")) {
  b.addEventListener("click", () => {
    view = b.dataset.view as typeof view;
    for (const o of document.querySelectorAll(".tabs button")) o.classList.toggle("active", o === b);
    renderView();
  });
}
$("copy").addEventListener(
  "click",
  () => void navigator.clipboard?.writeText(viewText).then(() => flash($("copy"), "Copied")),
);
$("download").addEventListener("click", () => {
  const ext = view === "gbnf" ? "gbnf" : view === "regex" ? "regex.txt" : "schema.json";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([viewText], { type: "text/plain" }));
  a.download = `tools.${ext}`;
  a.click();
  URL.revokeObjectURL(a.href);
});

function flash(button: HTMLElement, text: string): void {
  const old = button.textContent;
  button.textContent = text;
  setTimeout(() => (button.textContent = old), 1200);
}

// ---------- model output ----------

const verdictBox = $("verdict");
const prefixBox = $("prefix");

function analyzeNow(): void {
  const text = outputBox.value;
  if (!compiled) {
    verdictBox.className = "verdict";
    verdictBox.textContent = "";
    prefixBox.textContent = text;
    $("parse-tolerant").textContent = "";
    $("parse-strict").textContent = "";
    return;
  }
  const a = analyzeOutput(compiled, text);
  const expected = a.forced
    ? `<code>${escapeHtml(JSON.stringify(a.forced.slice(0, 60)))}</code>`
    : a.expected.length
      ? a.expected
          .slice(0, 14)
          .map((x) => `<code>${escapeHtml(x)}</code>`)
          .join(" ") + (a.expected.length > 14 ? " …" : "")
      : "nothing (the output is complete)";
  if (a.complete) {
    verdictBox.className = "verdict ok";
    verdictBox.innerHTML = `✓ <b data-testid="verdict-word">accepted</b>: the whole text is in the grammar's language (a turn can end here).`;
  } else if (a.leaves) {
    const { line, column } = lineColumn(text, a.acceptedLength);
    verdictBox.className = "verdict bad";
    verdictBox.innerHTML = `✗ <b data-testid="verdict-word">rejected</b> at line ${line}, column ${column}: <code>${escapeHtml(JSON.stringify([...text.slice(a.acceptedLength)][0]))}</code> is not allowed here; expected ${expected}.`;
  } else {
    verdictBox.className = "verdict partial";
    verdictBox.innerHTML = `… <b data-testid="verdict-word">incomplete</b>: a valid start; at least ${a.bytesToComplete} more byte${a.bytesToComplete === 1 ? "" : "s"} needed, next ${expected}.`;
  }
  prefixBox.innerHTML = `<span class="ok">${escapeHtml(text.slice(0, a.acceptedLength))}</span>${a.leaves ? `<span class="bad">${escapeHtml(text.slice(a.acceptedLength))}</span>` : '<span class="cursor"></span>'}`;
  const parseOpts = { tools: compiled.tools, format: formatSel.value as FormatName };
  renderParse($("parse-tolerant"), parseToolCalls(text, { ...parseOpts, mode: "tolerant" }));
  renderParse($("parse-strict"), parseToolCalls(text, { ...parseOpts, mode: "strict" }));
  saveState();
}

function renderParse(box: HTMLElement, r: ParseResult): void {
  const rows = r.calls.map(
    (c) =>
      `<tr><td>${escapeHtml(c.name)}</td><td class="args">${escapeHtml(JSON.stringify(c.arguments))}</td><td>${c.valid ? '<span class="pill ok">valid</span>' : `<span class="pill bad">invalid</span> ${escapeHtml(c.errors.map((e) => `${e.instancePath || "/"} ${e.message}`).join("; "))}`}</td></tr>`,
  );
  const calls = rows.length
    ? `<table class="calls"><tr><th>tool</th><th>arguments</th><th>ajv</th></tr>${rows.join("")}</table>`
    : `<div class="muted">no calls${r.content ? `; text ${escapeHtml(JSON.stringify(r.content.slice(0, 60)))}` : ""}</div>`;
  const issues = r.issues.length
    ? `<ul class="issues">${r.issues.map((i) => `<li><b>${escapeHtml(i.code)}</b> ${escapeHtml(i.message)}</li>`).join("")}</ul>`
    : '<div class="muted">no issues</div>';
  box.innerHTML = calls + issues + (r.dropped ? `<div class="muted">${r.dropped} dropped</div>` : "");
}

// ---------- token worker ----------

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const send = (m: ToWorker) => worker.postMessage(m);
const tokenButtons = ["tok-reset", "tok-step", "tok-forced", "tok-sample"].map((id) => $<HTMLButtonElement>(id));

function tokenChip(t: TokenView, clickable = false): HTMLElement {
  const el = document.createElement("span");
  el.className = t.special ? "tok special" : "tok";
  el.textContent = t.text.replace(/\n/g, "↵").replace(/\t/g, "⇥").replace(/ /g, "·") || "∅";
  el.title = `token ${t.id}: ${JSON.stringify(t.text)}`;
  if (clickable) el.addEventListener("click", () => send({ type: "accept", id: t.id }));
  return el;
}

worker.onmessage = (e: MessageEvent<FromWorker>) => {
  const m = e.data;
  if (m.type === "loaded") {
    probe.vocabMs = m.ms;
    probe.vocabLoaded = true;
    $("vocab-status").textContent =
      `Qwen3 vocabulary (${m.size.toLocaleString("en")} ids) loaded in ${(m.ms / 1000).toFixed(2)} s`;
    for (const b of tokenButtons) b.disabled = false;
  } else if (m.type === "error") {
    $("vocab-status").textContent = `worker: ${m.message}`;
  } else if (m.type === "state") {
    $("tok-text").replaceChildren(...m.tokens.map((t) => tokenChip(t)));
    $("tok-decoded").textContent = m.text;
    $("tok-allowed").textContent = m.terminated ? "0 (the turn ended)" : m.allowed.toLocaleString("en");
    $("tok-forced-text").textContent = m.forced ? JSON.stringify(m.forced) : "(a choice)";
    $("tok-complete").textContent = m.terminated
      ? "ended ✓"
      : m.completed
        ? "complete (an end token is allowed)"
        : "in progress";
    $("tok-sample-list").replaceChildren(...m.choices.map((t) => tokenChip(t, true)));
  } else if (m.type === "sampled") {
    const list = $("samples");
    for (const r of m.results) {
      probe.samples++;
      if (r.ok) probe.samplesOk++;
      const li = document.createElement("li");
      li.innerHTML = `<span class="pill ${r.ok ? "ok" : "bad"}" data-testid="sample-verdict">${r.ok ? "valid" : "INVALID"}</span> ${r.tokens} tokens · ${r.detail.map(escapeHtml).join(" · ")}<br><code>${escapeHtml(JSON.stringify(r.text))}</code>`;
      list.prepend(li);
    }
    const sampleButton = $<HTMLButtonElement>("tok-sample");
    sampleButton.disabled = false;
    sampleButton.textContent = "Sample under the mask";
  }
};
$("tok-reset").addEventListener("click", () => send({ type: "reset" }));
$("tok-step").addEventListener("click", () => send({ type: "step" }));
$("tok-forced").addEventListener("click", () => send({ type: "forced" }));
$("tok-sample").addEventListener("click", () => {
  const b = $<HTMLButtonElement>("tok-sample");
  b.disabled = true;
  b.textContent = "Sampling…";
  send({ type: "sample", budget: Math.max(8, Number($<HTMLInputElement>("tok-budget").value) || 160), runs: 1 });
});

// ---------- state and permalink ----------

function currentState(): PlaygroundState {
  return {
    tools: toolsBox.value,
    format: formatSel.value,
    choice: choiceSel.value,
    parallel: parallelSel.value,
    whitespace: whitespaceSel.value,
    output: outputBox.value,
  };
}
const saveState = debounce(() => {
  void encodeState(currentState()).then((h) => history.replaceState(null, "", `#${h}`));
}, 400);
$("permalink").addEventListener("click", async () => {
  const url = `${location.origin}${location.pathname}#${await encodeState(currentState())}`;
  history.replaceState(null, "", url);
  await navigator.clipboard?.writeText(url).catch(() => undefined);
  flash($("permalink"), "Link copied");
});

function applyExample(id: string): void {
  const ex = EXAMPLES.find((e) => e.id === id);
  if (!ex) return;
  toolsBox.value = JSON.stringify(ex.tools, null, 2);
  outputBox.value = ex.output;
}

exampleSel.addEventListener("change", () => {
  applyExample(exampleSel.value);
  recompile();
});
const recompileSoon = debounce(recompile, 250);
toolsBox.addEventListener("input", () => {
  exampleSel.value = "";
  highlight();
  recompileSoon();
});
for (const s of [formatSel, choiceSel, parallelSel, whitespaceSel]) s.addEventListener("change", recompile);
outputBox.addEventListener("input", debounce(analyzeNow, 60));

async function start(): Promise<void> {
  const saved = await decodeState(location.hash);
  if (saved?.tools !== undefined) {
    toolsBox.value = saved.tools;
    outputBox.value = saved.output ?? "";
    exampleSel.value = "";
    for (const [sel, v] of [
      [formatSel, saved.format],
      [parallelSel, saved.parallel],
      [whitespaceSel, saved.whitespace],
    ] as const)
      if (v) sel.value = v;
    if (saved.choice) {
      if (![...choiceSel.options].some((o) => o.value === saved.choice))
        choiceSel.add(new Option(saved.choice, saved.choice));
      choiceSel.value = saved.choice;
    }
  } else {
    exampleSel.value = "weather";
    applyExample("weather");
  }
  recompile();
  probe.readyMs = performance.now();
  probe.ready = true;
  $("status").textContent = `ready in ${(probe.readyMs / 1000).toFixed(2)} s`;
  send({ type: "load", url: new URL("./qwen3-tokenizer.json", import.meta.url).href });
}
void start();
