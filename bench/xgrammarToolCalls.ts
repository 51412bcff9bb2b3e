import { normalizeTools } from "../src/tools/normalizeTools.js";
import type { XGrammar } from "./loadXGrammar.js";

export interface XgToolPolicy {
  /** "auto": free text, then calls (XGrammar's tag dispatch); "required": calls only, no text. */
  toolChoice: "auto" | "required";
  /** More than one call, separated by "\n" (the separator toolgram's Qwen3 envelope writes). */
  parallel: boolean;
}

/**
 * XGrammar's own grammar for a tool-call turn in the Qwen3 envelope
 * (`<tool_call>\n{"name": "<name>", "arguments": <arguments>}\n</tool_call>`), as EBNF for `compileGrammar`.
 *
 * Each tool's arguments are XGrammar's JSON-schema grammar of the tool's schema (`Grammar.fromJSONSchema`, strict
 * mode) in the spelling toolgram's grammars use — one line, `", "` and `": "` — so XGrammar's string, number and
 * object rules are its own (its strings: the negated class `[^\0-\x1f\"\\\r\n]` and `\\` escapes), not toolgram's
 * GBNF. The envelope is toolgram's language in the constructs XGrammar's structural tags build for function calling
 * (a `TagDispatch` on `<tool_call>` for the text before the calls, as `triggered_tags` does; the calls separated by
 * "\n", as `tags_with_separator` does), written out as EBNF so that the dispatch stops after the calls (triggered
 * tags allow text after a call) and the `basic_*` rules XGrammar's converter writes for every schema (identical text each time) appear once
 * instead of once per tool (a structural tag with one grammar per tool compiles them per tool, which took XGrammar 23 s
 * for the 117-tool set and 185 s for the 500-tool set on this vocabulary), and tools with the same schema share one
 * arguments rule.
 *
 * Each schema is the tool's after `normalizeTools` (OpenAI or MCP shape in, standard JSON Schema out): XGrammar
 * aborts on published quirks such as the GitHub MCP server's `"type": "Number"`, which a user of XGrammar would have
 * to correct by hand, and normalisation rewrites only such spellings.
 */
export async function xgrammarToolCalls(xg: XGrammar, tools: unknown, policy: XgToolPolicy): Promise<string> {
  const shared = new Map<string, string>();
  const perTool: string[] = [];
  const choices: string[] = [];
  // tools with the same schema (the same server under two names) share one rule, as they would in toolgram's grammar
  const rootOf = new Map<string, string>();
  for (const { name, parameters } of normalizeTools(tools, [], { maxTools: Infinity })) {
    const schema = JSON.stringify(parameters);
    let root = rootOf.get(schema);
    if (root === undefined) {
      const args = await xg.Grammar.fromJSONSchema(schema, false, -1, [", ", ": "], true);
      const ebnf = args.toString();
      args.dispose();
      root = addToolRules(ebnf, `t${rootOf.size}_`, shared, perTool);
      rootOf.set(schema, root);
    }
    choices.push(`${ebnfString(`${JSON.stringify(name)}, "arguments": `)} ${root}`);
  }
  const more = policy.parallel ? ' ("\\n<tool_call>" call_body)*' : "";
  const envelope = [
    policy.toolChoice === "auto"
      ? // text up to the first call (or the end), then the calls: a dispatch that does not loop, so that nothing but
        // further calls follows a call, as in toolgram's envelope
        `root ::= TagDispatch(("<tool_call>", calls), stop_eos=true, stop_str=(), loop_after_dispatch=false)\ncalls ::= call_body${more}`
      : `root ::= "<tool_call>" call_body${more}`,
    `call_body ::= ${ebnfString('\n{"name": ')} (${choices.join(" | ")}) ${ebnfString("}\n</tool_call>")}`,
  ];
  return `${[...envelope, ...perTool, ...[...shared].map(([n, b]) => `${n} ::= ${b}`)].join("\n")}\n`;
}

/**
 * Adds one tool's rules from XGrammar's printed JSON-schema grammar: its `basic_*` rules go to `shared` (the same
 * text for every schema; one that differs is kept per tool), the others are renamed with `prefix`. Returns the
 * renamed root rule.
 */
function addToolRules(ebnf: string, prefix: string, shared: Map<string, string>, out: string[]): string {
  const rules: [string, string][] = [];
  for (const line of ebnf.split("\n")) {
    if (line.trim() === "") continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*) ::= (.*)$/.exec(line);
    if (m) rules.push([m[1], m[2]]);
    else if (rules.length)
      rules[rules.length - 1][1] += `\n${line}`; // a rule printed over several lines
    else throw new Error(`unexpected line in XGrammar's JSON-schema grammar: ${line}`);
  }
  const rename = new Map<string, string>();
  for (const [n, b] of rules) {
    const sharable = n.startsWith("basic_") && (shared.get(n) ?? b) === b;
    rename.set(n, sharable ? n : prefix + n);
  }
  for (const [n, b] of rules) {
    const renamed = renameRefs(b, rename);
    if (rename.get(n) === n) shared.set(n, renamed);
    else out.push(`${rename.get(n)} ::= ${renamed}`);
  }
  if (!rename.has("root")) throw new Error("XGrammar's JSON-schema grammar has no root rule");
  return rename.get("root")!;
}

/** Renames rule references in an EBNF body, leaving string literals and character classes alone. */
function renameRefs(body: string, rename: Map<string, string>): string {
  let out = "";
  for (let k = 0; k < body.length; ) {
    const c = body[k];
    if (c === '"' || c === "[") {
      const close = c === '"' ? '"' : "]";
      let j = k + 1;
      while (j < body.length && body[j] !== close) j += body[j] === "\\" ? 2 : 1;
      out += body.slice(k, j + 1);
      k = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = k + 1;
      while (j < body.length && /[A-Za-z0-9_]/.test(body[j])) j++;
      const id = body.slice(k, j);
      out += rename.get(id) ?? id;
      k = j;
    } else {
      out += c;
      k++;
    }
  }
  return out;
}

/** A string literal in XGrammar's EBNF (C-style escapes). */
function ebnfString(s: string): string {
  return JSON.stringify(s);
}
