/**
 * Extracts llama.cpp's parser test cases — real model outputs, per chat template, with the content, reasoning and
 * tool calls each must parse to — from `tests/test-chat.cpp` into test/fixtures/chat-outputs/ (one JSON file per
 * template, plus tools.json). It reads the C++ with a small tokenizer and evaluates only the shapes those tests use:
 * `auto tst = peg_tester("models/templates/X.jinja")`, then chains `tst.test(INPUT).tools({...}).expect(MSG)...run()`,
 * where MSG is a named message or a call of its helpers (`simple_assist_msg`, `message_with_tool_calls`, …).
 *
 *   npm run templates:extract-outputs
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { llamaCppSource } from "../src/testing/llamaCppSource.js";

export const OUTPUTS_DIR = fileURLToPath(new URL("../test/fixtures/chat-outputs/", import.meta.url));

type Tok = { k: "str" | "id" | "num" | "p"; v: string; line: number };

export function tokenize(src: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  let line = 1;
  const n = src.length;
  while (i < n) {
    const c = src[i];
    if (c === "\n") {
      line++;
      i++;
    } else if (/\s/.test(c)) i++;
    else if (src.startsWith("//", i)) {
      while (i < n && src[i] !== "\n") i++;
    } else if (src.startsWith("/*", i)) {
      const e = src.indexOf("*/", i + 2);
      for (const ch of src.slice(i, e + 2)) if (ch === "\n") line++;
      i = e + 2;
    } else if (c === "#") {
      while (i < n && src[i] !== "\n") i++;
    } else if (
      /^(?:u8|u|U|L)?R"/.test(src.slice(i, i + 4)) &&
      src[src.indexOf('"', i) - 1] === "R" &&
      src.indexOf('"', i) - i <= 3
    ) {
      const q = src.indexOf('"', i);
      const open = src.indexOf("(", q);
      const delim = src.slice(q + 1, open);
      const close = src.indexOf(`)${delim}"`, open);
      const v = src.slice(open + 1, close);
      out.push({ k: "str", v, line });
      for (const ch of src.slice(i, close + delim.length + 2)) if (ch === "\n") line++;
      i = close + delim.length + 2;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let v = "";
      while (src[j] !== c) {
        if (src[j] === "\\") {
          const e = src[j + 1];
          const simple: Record<string, string> = {
            n: "\n",
            t: "\t",
            r: "\r",
            "0": "\0",
            "\\": "\\",
            '"': '"',
            "'": "'",
            b: "\b",
            f: "\f",
            v: "\v",
            a: "\x07",
            "?": "?",
          };
          if (e in simple) {
            v += simple[e];
            j += 2;
          } else if (e === "x") {
            const m = /^[0-9a-fA-F]+/.exec(src.slice(j + 2)) as RegExpExecArray;
            v += String.fromCharCode(parseInt(m[0], 16));
            j += 2 + m[0].length;
          } else if (e === "u" || e === "U") {
            const len = e === "u" ? 4 : 8;
            v += String.fromCodePoint(parseInt(src.slice(j + 2, j + 2 + len), 16));
            j += 2 + len;
          } else throw new Error(`line ${line}: unknown escape \\${e}`);
        } else v += src[j++];
      }
      // C++ strings are UTF-8 bytes written as UTF-8 source: the JS string already holds the code points
      out.push({ k: "str", v, line });
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*/.exec(src.slice(i)) as RegExpExecArray;
      out.push({ k: "id", v: m[0], line });
      i += m[0].length;
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9][0-9a-zA-Z.]*/.exec(src.slice(i)) as RegExpExecArray;
      out.push({ k: "num", v: m[0], line });
      i += m[0].length;
    } else {
      out.push({ k: "p", v: c, line });
      i++;
    }
  }
  return out;
}

/** A parsed call as the tests state it: arguments are JSON text (compared as JSON by llama.cpp's tests). */
export interface ExpectedCall {
  name: string;
  arguments: string;
  id: string;
}
export interface ExpectedMessage {
  content: string;
  reasoning: string;
  toolCalls: ExpectedCall[];
}
type Value = string | boolean | number | Value[] | ExpectedMessage | { unknown: string } | { tool: string };

const isMsg = (v: Value | undefined): v is ExpectedMessage =>
  typeof v === "object" && v !== null && !Array.isArray(v) && "toolCalls" in v;

class Reader {
  i = 0;
  constructor(
    readonly t: Tok[],
    readonly env: Map<string, Value>,
  ) {}
  peek(o = 0): Tok | undefined {
    return this.t[this.i + o];
  }
  is(v: string, o = 0): boolean {
    return this.t[this.i + o]?.v === v;
  }
  /** Skips a balanced group starting at an opener; returns its source-ish text. */
  skipGroup(): string {
    const open = this.t[this.i].v;
    const close = ({ "(": ")", "{": "}", "[": "]" } as Record<string, string>)[open];
    let depth = 0;
    const parts: string[] = [];
    do {
      const tok = this.t[this.i++];
      if (tok.k === "p" && tok.v === open) depth++;
      if (tok.k === "p" && tok.v === close) depth--;
      parts.push(tok.k === "str" ? JSON.stringify(tok.v) : tok.v);
    } while (depth > 0);
    return parts.join(" ");
  }
  /** An expression up to `,` `)` `}` at depth 0. */
  expr(): Value {
    const tok = this.peek() as Tok;
    if (tok.k === "str") {
      let s = "";
      while (this.peek()?.k === "str") s += (this.t[this.i++] as Tok).v;
      return this.rest(s);
    }
    if (tok.k === "p" && tok.v === "{") {
      this.i++;
      const items: Value[] = [];
      while (!this.is("}")) {
        items.push(this.expr());
        if (this.is(",")) this.i++;
      }
      this.i++;
      return items;
    }
    if (tok.k === "id" && (tok.v === "true" || tok.v === "false")) {
      this.i++;
      return tok.v === "true";
    }
    if (tok.k === "num") {
      this.i++;
      return Number(tok.v);
    }
    if (tok.k === "id") {
      this.i++;
      if (tok.v === "std::string" && this.is("(")) {
        this.i++;
        const v = this.expr();
        this.i++; // )
        return this.rest(v);
      }
      if (this.is("(")) {
        const save = this.i;
        this.i++;
        const args: Value[] = [];
        while (!this.is(")")) {
          args.push(this.expr());
          if (this.is(",")) this.i++;
        }
        this.i++;
        const v = callHelper(tok.v, args);
        if (v !== undefined) return this.rest(v);
        this.i = save;
        return { unknown: `${tok.v}${this.skipGroup()}` };
      }
      const bound = this.env.get(tok.v);
      return this.rest(bound ?? { unknown: tok.v });
    }
    // anything else: skip to the end of the expression
    const start = this.i;
    while (this.peek() !== undefined && !this.is(",") && !this.is(")") && !this.is("}")) {
      if (this.is("(") || this.is("{") || this.is("[")) this.skipGroup();
      else this.i++;
    }
    return {
      unknown: this.t
        .slice(start, this.i)
        .map((x) => x.v)
        .join(" "),
    };
  }
  /** Consumes a trailing `+ expr` (string concatenation). */
  rest(v: Value): Value {
    if (this.is("+")) {
      this.i++;
      const r = this.expr();
      return typeof v === "string" && typeof r === "string" ? v + r : { unknown: "concatenation" };
    }
    return v;
  }
}

function str(v: Value | undefined): string {
  return typeof v === "string" ? v : "";
}

/** The message helpers of tests/test-chat.cpp, evaluated. */
function callHelper(name: string, a: Value[]): Value | undefined {
  const msg = (content: string, reasoning: string, calls: ExpectedCall[]): ExpectedMessage => ({
    content,
    reasoning,
    toolCalls: calls,
  });
  const one = (toolName: string, args: string, id: string): ExpectedCall[] =>
    toolName !== "" || id !== "" ? [{ name: toolName, arguments: args, id }] : [];
  switch (name) {
    case "simple_assist_msg":
      return msg(str(a[0]), str(a[1]), one(str(a[2]), str(a[3]), str(a[4])));
    case "message_with_tool_calls":
      return msg("", "", one(str(a[0]), str(a[1]), ""));
    case "message_with_tool_calls_and_reasoning":
      return msg("", str(a[2]), one(str(a[0]), str(a[1]), ""));
    case "message_with_content_and_tool_call":
      return msg(str(a[0]), "", one(str(a[1]), str(a[2]), ""));
    case "message_with_reasoning_and_tool_call":
      return msg("", str(a[0]), one(str(a[1]), str(a[2]), ""));
    case "message_with_reasoning_content_and_multiple_tool_calls":
      return msg(
        str(a[1]),
        str(a[0]),
        (Array.isArray(a[2]) ? a[2] : []).map((p) => ({
          name: str((p as Value[])[0]),
          arguments: str((p as Value[])[1]),
          id: "",
        })),
      );
    default:
      return undefined;
  }
}

/** A tool in OpenAI's function shape, from `{ name, description, parameters-as-JSON-text }`. */
function toolOf(v: Value[]): { name: string; description: string; parameters: unknown } {
  let parameters: unknown = v[2];
  try {
    parameters = JSON.parse(str(v[2]));
  } catch {
    // keep the text: the test declares it so
  }
  return { name: str(v[0]), description: str(v[1]), parameters };
}

/** One `tst.test(...)...run()` chain. */
export interface ChatOutputCase {
  /** Line of `tests/test-chat.cpp` the case starts on. */
  line: number;
  /** The model output, as the test feeds it to the parser (after the generation prompt). */
  text: string;
  /** Names of the tools the test declares (see tools.json). */
  tools: string[];
  /** The message the output must parse to; absent when the test states it in a form this extractor cannot read. */
  expect?: ExpectedMessage;
  /** The other settings of the test (enable_thinking, reasoning_format, parallel_tool_calls, is_partial, …), verbatim. */
  settings: Record<string, string>;
}

interface PendingChain {
  templates: string[] | { param: string; fn: string };
  c: ChatOutputCase;
}

export function extractCases(cpp: string): {
  byTemplate: Map<string, ChatOutputCase[]>;
  tools: Record<string, unknown>;
  unresolved: number;
} {
  const toks = tokenize(cpp);
  const env = new Map<string, Value>();
  const tools: Record<string, unknown> = {};
  const r = new Reader(toks, env);
  const testers = new Map<string, string[] | { param: string; fn: string }>();
  const loops = new Map<string, string[]>();
  const pending: PendingChain[] = [];
  const fnCalls = new Map<string, string[]>();
  let currentFn = "";
  let currentParams: string[] = [];
  while (r.i < toks.length) {
    const t = toks[r.i];
    // static void NAME(const std::string & PARAM, ...) {
    if (t.k === "id" && t.v === "void" && toks[r.i + 1]?.k === "id" && toks[r.i + 2]?.v === "(") {
      currentFn = toks[r.i + 1].v;
      currentParams = [];
      let j = r.i + 3;
      while (toks[j].v !== ")") {
        if (toks[j].k === "id" && (toks[j + 1]?.v === "," || toks[j + 1]?.v === ")")) currentParams.push(toks[j].v);
        j++;
      }
      r.i = j + 1;
      continue;
    }
    // common_chat_msg NAME = EXPR ;   common_chat_tool NAME { name, description, parameters } ;
    if (t.k === "id" && (t.v === "common_chat_msg" || t.v === "common_chat_tool") && toks[r.i + 1]?.k === "id") {
      const name = toks[r.i + 1].v;
      if (t.v === "common_chat_msg" && toks[r.i + 2]?.v === "=") {
        r.i += 3;
        env.set(name, r.expr());
        continue;
      }
      if (t.v === "common_chat_tool" && toks[r.i + 2]?.v === "{") {
        r.i += 2;
        const v = r.expr();
        if (Array.isArray(v) && typeof v[0] === "string") {
          tools[name] = toolOf(v);
          env.set(name, { tool: name });
        }
        continue;
      }
    }
    // local values: auto NAME = EXPR;  const std::string NAME = EXPR;
    if (
      t.k === "id" &&
      (t.v === "auto" || t.v === "std::string") &&
      toks[r.i + 1]?.k === "id" &&
      toks[r.i + 2]?.v === "=" &&
      toks[r.i + 3]?.v !== "peg_tester"
    ) {
      const name = toks[r.i + 1].v;
      r.i += 3;
      env.set(name, r.expr());
      continue;
    }
    // for (const auto & NAME : { "a", "b" })  /  for (const char * NAME : { ... })
    if (t.v === "for" && toks[r.i + 1]?.v === "(") {
      let j = r.i + 2;
      while (toks[j].v !== ":" && toks[j].v !== ";" && toks[j].v !== ")") j++;
      if (toks[j].v === ":" && toks[j + 1]?.v === "{") {
        const name = toks[j - 1].v;
        r.i = j + 1;
        const list = r.expr();
        if (Array.isArray(list) && list.every((x) => typeof x === "string")) loops.set(name, list as string[]);
        continue;
      }
    }
    // auto TST = peg_tester(ARG
    if (t.v === "peg_tester" && toks[r.i + 1]?.v === "(" && toks[r.i - 1]?.v === "=" && toks[r.i - 3]?.v === "auto") {
      const varName = toks[r.i - 2].v;
      const arg = toks[r.i + 2];
      if (arg.k === "str") testers.set(varName, [arg.v]);
      else if (loops.has(arg.v)) testers.set(varName, loops.get(arg.v) as string[]);
      else if (currentParams.includes(arg.v)) testers.set(varName, { param: arg.v, fn: currentFn });
      r.i += 3;
      continue;
    }
    // FN(ARG, ...) for a function whose tests depend on its parameter
    if (t.k === "id" && toks[r.i + 1]?.v === "(" && t.v !== currentFn) {
      const arg = toks[r.i + 2];
      if (arg?.k === "str" && arg.v.startsWith("models/templates/"))
        fnCalls.set(t.v, [...(fnCalls.get(t.v) ?? []), arg.v]);
      else if (arg?.k === "id" && loops.has(arg.v))
        fnCalls.set(t.v, [...(fnCalls.get(t.v) ?? []), ...(loops.get(arg.v) as string[])]);
    }
    // TST . test ( INPUT ) . method ( ARGS ) ... . run ( )
    if (
      t.k === "id" &&
      testers.has(t.v) &&
      toks[r.i + 1]?.v === "." &&
      toks[r.i + 2]?.v === "test" &&
      toks[r.i + 3]?.v === "("
    ) {
      const line = t.line;
      r.i += 4;
      const input = r.expr();
      r.i++; // )
      const c: ChatOutputCase = { line, text: typeof input === "string" ? input : "", tools: [], settings: {} };
      let ok = typeof input === "string";
      while (r.is(".") && toks[r.i + 1]?.k === "id" && toks[r.i + 2]?.v === "(") {
        const method = toks[r.i + 1].v;
        r.i += 2;
        if (method === "run") {
          r.skipGroup();
          break;
        }
        const groupStart = r.i;
        r.i++;
        const args: Value[] = [];
        while (!r.is(")")) {
          args.push(r.expr());
          if (r.is(",")) r.i++;
        }
        r.i++;
        const raw = toks
          .slice(groupStart + 1, r.i - 1)
          .map((x) => (x.k === "str" ? JSON.stringify(x.v) : x.v))
          .join(" ");
        const expect = (c.expect ??= { content: "", reasoning: "", toolCalls: [] });
        if (method === "tools") {
          c.tools = (Array.isArray(args[0]) ? args[0] : []).map((x) => {
            if (typeof x === "object" && x !== null && "tool" in x) return x.tool;
            // a tool written inline: { "name", "description", R"({parameters})" }, keyed by its name
            if (Array.isArray(x) && typeof x[0] === "string") {
              tools[x[0]] = toolOf(x);
              return x[0];
            }
            ok = false;
            return String((x as { unknown?: string }).unknown ?? x);
          });
        } else if (method === "expect") {
          if (isMsg(args[0])) c.expect = structuredClone(args[0]);
          else ok = false;
        } else if (method === "expect_content") {
          if (typeof args[0] === "string") expect.content = args[0];
          else ok = false;
        } else if (method === "expect_reasoning") {
          if (typeof args[0] === "string") expect.reasoning = args[0];
          else ok = false;
        } else if (method === "expect_tool_calls") {
          const calls = Array.isArray(args[0]) ? args[0] : [];
          expect.toolCalls = calls.map((x) => {
            const a = Array.isArray(x) ? x : [];
            if (typeof a[0] !== "string" || typeof a[1] !== "string") ok = false;
            return { name: str(a[0]), arguments: str(a[1]), id: str(a[2]) };
          });
        } else c.settings[method] = raw;
      }
      if (!ok) delete c.expect;
      pending.push({ templates: testers.get(t.v) as PendingChain["templates"], c });
      continue;
    }
    r.i++;
  }
  const byTemplate = new Map<string, ChatOutputCase[]>();
  let unresolved = 0;
  for (const p of pending) {
    const templates = Array.isArray(p.templates) ? p.templates : (fnCalls.get(p.templates.fn) ?? []);
    if (templates.length === 0) unresolved++;
    for (const tpl of templates) byTemplate.set(tpl, [...(byTemplate.get(tpl) ?? []), p.c]);
  }
  return { byTemplate, tools, unresolved };
}

async function main(): Promise<number> {
  const src = await llamaCppSource();
  if (src === undefined) {
    process.stderr.write("llama.cpp's source is not available (node-llama-cpp or git missing).\n");
    return 1;
  }
  const path = "tests/test-chat.cpp";
  const { byTemplate, tools, unresolved } = extractCases(readFileSync(join(src.dir, path), "utf8"));
  rmSync(OUTPUTS_DIR, { recursive: true, force: true });
  mkdirSync(OUTPUTS_DIR, { recursive: true });
  const source = {
    repository: "https://github.com/ggml-org/llama.cpp",
    path,
    commit: src.commit,
    tag: src.tag,
    license: "MIT",
  };
  let cases = 0;
  let withExpect = 0;
  for (const [tpl, list] of [...byTemplate].sort(([a], [b]) => a.localeCompare(b))) {
    cases += list.length;
    withExpect += list.filter((c) => c.expect !== undefined).length;
    const file = basename(tpl).replace(/\.jinja$/, ".json");
    writeFileSync(join(OUTPUTS_DIR, file), `${JSON.stringify({ source, template: tpl, cases: list }, null, 2)}\n`);
  }
  writeFileSync(join(OUTPUTS_DIR, "tools.json"), `${JSON.stringify({ source, tools }, null, 2)}\n`);
  process.stdout.write(
    `${byTemplate.size} templates, ${cases} cases (${withExpect} with an expected message), ${Object.keys(tools).length} tools, ${unresolved} chains without a template\n`,
  );
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
