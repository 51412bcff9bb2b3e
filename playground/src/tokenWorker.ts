import AjvModule from "ajv";
import addFormatsModule from "ajv-formats";
import {
  compileTools,
  parseToolCalls,
  Vocabulary,
  type CompiledGrammar,
  type FormatOption,
  type TokenMatcher,
} from "../../src/index.js";
import type { FromWorker, SampleResult, ToWorker, TokenView } from "./protocol.js";

// The Qwen3 vocabulary lives here so the page stays responsive while its 11 MB tokenizer.json is read.
const QWEN3 = { size: 151936, eosTokenIds: [151645, 151643] };
const post = (m: FromWorker) => (globalThis as unknown as { postMessage(m: FromWorker): void }).postMessage(m);
const utf8 = new TextDecoder("utf-8", { fatal: false });
const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

let vocab: Vocabulary | undefined;
let byBytes: Map<string, number> | undefined; // token bytes (latin1) → id, for greedy tokenization of forced text
let atomIds: Map<string, number> | undefined;
let compiled: CompiledGrammar | undefined;
let format: FormatOption = "qwen3";
let required = false;
let matcher: TokenMatcher | undefined;
let accepted: number[] = [];
let bits: Uint32Array = new Uint32Array(0);
// CommonJS modules with a `default` export: NodeNext types see the module object, bundlers may give either
const Ajv = ((AjvModule as unknown as { default?: typeof AjvModule }).default ??
  AjvModule) as unknown as typeof AjvModule.default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
let seed = 0x9e3779b9;
// xorshift32: the samples need to differ, not to be reproducible across loads
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};

self.onmessage = (e: MessageEvent<ToWorker>) => {
  try {
    handle(e.data);
  } catch (err) {
    post({
      type: "error",
      message:
        err instanceof Error
          ? `${(err as { code?: string }).code ? `${(err as { code?: string }).code}: ` : ""}${err.message}`
          : String(err),
    });
  }
};

function handle(msg: ToWorker): void {
  switch (msg.type) {
    case "load":
      void load(msg.url);
      return;
    case "grammar":
      format = msg.options.format ?? "qwen3";
      required = msg.required;
      compiled = compileTools(msg.tools, msg.options);
      seed = (Date.now() | 1) >>> 0;
      resetMatcher();
      return;
    case "reset":
      resetMatcher();
      return;
    case "accept":
      if (matcher?.acceptToken(msg.id)) accepted.push(msg.id);
      sendState();
      return;
    case "step": {
      if (!matcher) return;
      matcher.fillNextTokenBitmask(bits);
      const id = pickAllowed(bits);
      if (id >= 0 && matcher.acceptToken(id)) accepted.push(id);
      sendState();
      return;
    }
    case "forced":
      acceptForced();
      sendState();
      return;
    case "sample": {
      const results: SampleResult[] = [];
      for (let i = 0; i < msg.runs; i++) results.push(sampleOnce(msg.budget));
      post({ type: "sampled", results });
      return;
    }
  }
}

async function load(url: string): Promise<void> {
  const t0 = performance.now();
  const json = await (await fetch(url)).json();
  vocab = Vocabulary.fromTokenizerJson(json, QWEN3);
  byBytes = new Map();
  for (let id = 0; id < vocab.size; id++) {
    const b = vocab.tokenBytes(id);
    if (b.length > 0 && b.length <= 24) byBytes.set(String.fromCharCode(...b), id);
  }
  atomIds = new Map([...vocab.atoms].map(([id, text]) => [text, id]));
  bits = new Uint32Array(Math.ceil(vocab.size / 32));
  post({ type: "loaded", ms: performance.now() - t0, size: vocab.size });
  resetMatcher();
}

function resetMatcher(): void {
  if (!vocab || !compiled) return;
  matcher = compiled.createMatcher(vocab);
  accepted = [];
  sendState();
}

function tokenView(id: number): TokenView {
  const atom = vocab!.atoms.get(id);
  if (atom !== undefined) return { id, text: atom, special: true };
  if (vocab!.eosTokenIds.includes(id))
    return { id, text: id === 151645 ? "<|im_end|>" : "<|endoftext|>", special: true };
  const b = vocab!.tokenBytes(id);
  let text: string;
  try {
    text = strictUtf8.decode(b);
  } catch {
    text = [...b].map((x) => (x < 0x80 ? String.fromCharCode(x) : `<0x${x.toString(16).toUpperCase()}>`)).join(""); // part of a character
  }
  return { id, text, special: false };
}

function textOf(ids: readonly number[]): string {
  const out: number[] = [];
  for (const id of ids) {
    if (vocab!.eosTokenIds.includes(id)) continue;
    const atom = vocab!.atoms.get(id);
    if (atom !== undefined) out.push(...new TextEncoder().encode(atom));
    else out.push(...vocab!.tokenBytes(id));
  }
  return utf8.decode(Uint8Array.from(out));
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function countAllowed(mask: Uint32Array): number {
  let n = 0;
  for (let w = 0; w < mask.length; w++) if (mask[w]) n += popcount(mask[w]);
  return n;
}

/** A uniformly random allowed token id, or -1 when none is allowed. */
function pickAllowed(mask: Uint32Array): number {
  const n = countAllowed(mask);
  if (n === 0) return -1;
  let k = Math.floor(random() * n);
  for (let w = 0; w < mask.length; w++) {
    const c = mask[w] ? popcount(mask[w]) : 0;
    if (k >= c) {
      k -= c;
      continue;
    }
    for (let b = 0; b < 32; b++) if ((mask[w] >>> b) & 1 && k-- === 0) return w * 32 + b;
  }
  return -1;
}

function sendState(): void {
  if (!matcher || !vocab) return;
  matcher.fillNextTokenBitmask(bits);
  const allowed = countAllowed(bits);
  // the sample shows the special tokens that are allowed first, then random ordinary ones
  const choices = new Set<number>();
  for (const id of [...vocab.atoms.keys(), ...vocab.eosTokenIds])
    if ((bits[id >>> 5] >>> (id & 31)) & 1) choices.add(id);
  for (let tries = 0; choices.size < Math.min(allowed, 36) && tries < 400; tries++) choices.add(pickAllowed(bits));
  post({
    type: "state",
    tokens: accepted.map(tokenView),
    text: textOf(accepted),
    allowed,
    choices: [...choices].filter((id) => id >= 0).map(tokenView),
    forced: matcher.forcedText(),
    completed: matcher.isCompleted(),
    terminated: matcher.isTerminated(),
  });
}

/** Accept the forced text with the longest allowed tokens that spell it (special tokens for their text). */
function acceptForced(): void {
  if (!matcher || !vocab || !byBytes || !atomIds) return;
  const forced = matcher.forcedText();
  let rest = String.fromCharCode(...new TextEncoder().encode(forced)); // latin1 view of the UTF-8 bytes
  while (rest.length > 0) {
    let took = false;
    for (const [text, id] of atomIds) {
      if (rest.startsWith(text) && matcher.acceptToken(id)) {
        accepted.push(id);
        rest = rest.slice(text.length);
        took = true;
        break;
      }
    }
    if (took) continue;
    for (let len = Math.min(24, rest.length); len > 0; len--) {
      const id = byBytes.get(rest.slice(0, len));
      if (id !== undefined && matcher.acceptToken(id)) {
        accepted.push(id);
        rest = rest.slice(len);
        took = true;
        break;
      }
    }
    if (!took) return;
  }
}

/** Draw random allowed tokens (the mask narrowed so the turn ends within the budget) until an end token. */
function sampleOnce(budget: number): SampleResult {
  const m = compiled!.createMatcher(vocab!);
  const ids: number[] = [];
  for (let left = budget; left > 0 && !m.isTerminated(); left--) {
    m.fillNextTokenBitmaskWithin(bits, left);
    const id = pickAllowed(bits);
    if (id < 0 || !m.acceptToken(id))
      return {
        text: textOf(ids),
        tokens: ids.length,
        ok: false,
        detail: [`no allowed token after ${ids.length} tokens`],
      };
    ids.push(id);
  }
  const text = textOf(ids);
  if (!m.isTerminated())
    return { text, tokens: ids.length, ok: false, detail: [`the turn did not end within ${budget} tokens`] };
  return { text, tokens: ids.length, ...checkWithAjv(text) };
}

/** Parse the sampled turn strictly and validate every call's arguments with ajv against its tool's schema. */
function checkWithAjv(text: string): { ok: boolean; detail: string[] } {
  const parsed = parseToolCalls(text, { tools: compiled!.tools, format, mode: "strict" });
  const detail: string[] = [];
  let ok = parsed.issues.length === 0;
  for (const issue of parsed.issues) detail.push(`parser: ${issue.code} ${issue.message}`);
  for (const call of parsed.calls) {
    const tool = compiled!.tools.find((t) => t.name === call.name);
    if (!tool) {
      ok = false;
      detail.push(`${call.name}: not a declared tool`);
      continue;
    }
    const validate = ajv.compile(tool.parameters as object);
    const valid = validate(call.arguments);
    ok &&= valid;
    detail.push(
      `${call.name} ${JSON.stringify(call.arguments)}: ${valid ? "valid (ajv)" : `INVALID (ajv): ${ajv.errorsText(validate.errors)}`}`,
    );
  }
  if (required && parsed.calls.length === 0) {
    ok = false;
    detail.push("no call, but toolChoice requires one");
  }
  if (parsed.calls.length === 0 && !required) detail.push(`text only: ${JSON.stringify(parsed.content.slice(0, 80))}`);
  return { ok, detail };
}
