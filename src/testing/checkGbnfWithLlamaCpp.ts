import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** What llama.cpp said about one grammar. */
export interface GbnfCheck {
  /** llama.cpp's parser (and its left-recursion check) accepted the grammar. */
  ok: boolean;
  /** Why not: llama.cpp's own message from stderr, or "crashed"/"timed out" when the child process died. */
  error?: string;
  /** For each requested sample: whether llama.cpp's grammar engine accepts the whole text (only when `ok`). */
  samples?: boolean[];
}

/** A grammar to check, with texts to run through llama.cpp's grammar engine. */
export interface GbnfCheckItem {
  /** The GBNF text to parse with llama.cpp's parser (root rule `root`). */
  grammar: string;
  /** Texts to run through llama.cpp's grammar engine (code point by code point, as `isTextCompatible` does). */
  samples?: string[];
}

/** Options of {@link checkGbnfWithLlamaCpp}: the child process's memory cap and time limit. */
export interface GbnfCheckOptions {
  /**
   * Address-space cap of the child process in MiB (`ulimit -v`): llama.cpp allocates without bound on some grammars.
   * Node itself needs about 2 GiB of address space to start, so values below 2048 make every check fail. @defaultValue 4096
   */
  memoryLimitMb?: number;
  /**
   * Time allowed per grammar, samples included (loading llama.cpp, ≈ 0.5 s, has its own minute). @defaultValue 30_000
   */
  timeoutMs?: number;
}

/**
 * The child: loads llama.cpp through node-llama-cpp, parses each grammar, runs its samples, and prints one JSON line
 * per grammar. A marker on stderr before each grammar lets the parent attribute llama.cpp's messages (the parser
 * prints the reason on stderr; node-llama-cpp only throws "Failed to parse grammar").
 * Kept as source text so it runs from a fresh clone and from the built package alike; it is written to a temporary
 * .mjs file because node-llama-cpp forks a binding test with the parent's exec arguments (so `node -e` breaks it).
 */
const CHILD = String.raw`
const { getLlama } = await import(process.env.TOOLGRAM_NLC_URL);
// decoded as a stream: chunks are Buffers, and a character split across two of them would become two U+FFFD
process.stdin.setEncoding("utf8");
let input = "";
for await (const chunk of process.stdin) input += chunk;
const items = JSON.parse(input);
let logs = [];
const llama = await getLlama({ gpu: false, build: "never", logLevel: "warn", logger: (_level, message) => logs.push(String(message)) });
process.stdout.write(JSON.stringify({ ready: true }) + "\n");
for (const item of items) {
  process.stderr.write("\n@@toolgram-grammar " + item.index + "@@\n");
  logs = [];
  let out;
  try {
    const g = await llama.createGrammar({ grammar: item.grammar });
    out = { index: item.index, ok: true, samples: (item.samples ?? []).map((s) => g._testText(s)) };
  } catch (e) {
    await new Promise((r) => setTimeout(r, 50)); // let node-llama-cpp's asynchronous log callback deliver
    out = { index: item.index, ok: false, error: String(e && e.message), logs };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
}
process.exit(0);
`;

/** Loading llama.cpp in the child may take this long on a busy machine before grammars are timed. */
const LOAD_TIMEOUT_MS = 60_000;

interface ChildLine {
  ready?: boolean;
  index: number;
  ok: boolean;
  samples?: boolean[];
  error?: string;
  logs?: string[];
}

function nodeLlamaCppUrl(): string {
  const require = createRequire(import.meta.url);
  return pathToFileURL(require.resolve("node-llama-cpp")).href;
}

/** Runs one child over `items` (indices into the batch); resolves with what it reported before it ended. */
function runChild(
  items: { index: number; grammar: string; samples?: string[] }[],
  opts: Required<GbnfCheckOptions>,
  url: string,
  script: string,
): Promise<{ lines: ChildLine[]; stderr: Map<number, string>; failure?: string }> {
  return new Promise((resolve) => {
    const kb = Math.floor(opts.memoryLimitMb * 1024);
    const child = spawn("bash", ["-c", `ulimit -v ${kb} && exec "$0" "$1"`, process.execPath, script], {
      env: { ...process.env, TOOLGRAM_NLC_URL: url },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const lines: ChildLine[] = [];
    let out = "";
    let err = "";
    let failure: string | undefined;
    let timer: NodeJS.Timeout;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        failure = `timed out after ${ms} ms`;
        child.kill("SIGKILL");
      }, ms);
    };
    arm(Math.max(LOAD_TIMEOUT_MS, opts.timeoutMs));
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d: string) => {
      out += d;
      let nl: number;
      while ((nl = out.indexOf("\n")) >= 0) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (line.trim()) {
          const parsed = JSON.parse(line) as ChildLine;
          if (!parsed.ready) lines.push(parsed);
          arm(opts.timeoutMs);
        }
      }
    });
    child.stderr.on("data", (d: string) => (err += d));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (failure === undefined && lines.length < items.length) {
        failure = `llama.cpp process ended (code ${code}, signal ${signal}): crashed or ran out of memory`;
      }
      // split stderr at the markers
      const stderr = new Map<number, string>();
      const parts = err.split(/\n@@toolgram-grammar (\d+)@@\n/);
      for (let i = 1; i + 1 < parts.length; i += 2) stderr.set(Number(parts[i]), parts[i + 1].trim());
      if (failure !== undefined && lines.length === 0 && parts.length === 1 && err.trim()) failure += `: ${err.trim()}`;
      resolve({ lines, stderr, failure });
    });
    child.stdin.end(JSON.stringify(items));
  });
}

/**
 * Checks many GBNF grammars with llama.cpp's own parser (node-llama-cpp 3.21.1, CPU build, no model needed), in a
 * child process with an address-space cap and a timeout, since some grammars make llama.cpp allocate until the
 * system kills it. Results are in input order. When the child dies on a grammar, that grammar is reported as failed
 * and the rest run in a new child. Optional samples are run through llama.cpp's grammar engine, for differential tests.
 */
export async function checkGbnfBatchWithLlamaCpp(
  items: readonly (string | GbnfCheckItem)[],
  options: GbnfCheckOptions = {},
): Promise<GbnfCheck[]> {
  const opts: Required<GbnfCheckOptions> = { memoryLimitMb: 4096, timeoutMs: 30_000, ...options };
  const url = nodeLlamaCppUrl();
  const dir = mkdtempSync(join(tmpdir(), "toolgram-gbnf-"));
  const script = join(dir, "check.mjs");
  writeFileSync(script, CHILD);
  try {
    return await runAll(items, opts, url, script);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runAll(
  items: readonly (string | GbnfCheckItem)[],
  opts: Required<GbnfCheckOptions>,
  url: string,
  script: string,
): Promise<GbnfCheck[]> {
  const all = items.map((it, index) => (typeof it === "string" ? { index, grammar: it } : { index, ...it }));
  const results: GbnfCheck[] = new Array(all.length);
  let pending = all;
  while (pending.length > 0) {
    const { lines, stderr, failure } = await runChild(pending, opts, url, script);
    for (const l of lines) {
      if (l.ok) results[l.index] = { ok: true, samples: l.samples ?? [] };
      else {
        const why = [stderr.get(l.index) ?? "", ...(l.logs ?? [])].filter((s) => s.trim()).join("\n");
        results[l.index] = { ok: false, error: why || l.error || "llama.cpp refused the grammar" };
      }
    }
    if (lines.length === pending.length) break;
    const dead = pending[lines.length];
    results[dead.index] = {
      ok: false,
      error: [failure ?? "llama.cpp process failed", stderr.get(dead.index) ?? ""].filter(Boolean).join("\n"),
    };
    if (lines.length === 0 && !stderr.has(dead.index)) {
      // the child failed before reaching any grammar (e.g. node-llama-cpp missing): report it for all of them
      for (const p of pending) results[p.index] = { ok: false, error: results[dead.index].error };
      break;
    }
    pending = pending.slice(lines.length + 1);
  }
  return results;
}

/** Checks one GBNF grammar with llama.cpp's own parser; see {@link checkGbnfBatchWithLlamaCpp}. */
export async function checkGbnfWithLlamaCpp(gbnf: string, options: GbnfCheckOptions = {}): Promise<GbnfCheck> {
  return (await checkGbnfBatchWithLlamaCpp([gbnf], options))[0];
}
