import type { GExpr } from "../grammar/Grammar.js";
import { alt, lit, opt, rep, seq, token } from "../grammar/build.js";
import { quoteJsonString } from "../json.js";
import type { Envelope, EnvelopeGrammarInput } from "./Envelope.js";
import { textWithout } from "./textWithout.js";

/** The facts of the Qwen3 / Hermes format, shared by its grammar, parser and renderer. */
export interface Qwen3Description {
  /** Opens a call; a special token in Qwen3's vocabulary (id 151657). */
  callOpen: string;
  /** Closes a call (id 151658). */
  callClose: string;
  /** Between the open tag and the JSON body, and between the body and the close tag. */
  bodyPadding: string;
  /** Between two consecutive calls (Qwen3's chat template writes calls on separate lines). */
  callSeparator: string;
  nameKey: string;
  argumentsKey: string;
}

export const QWEN3: Readonly<Qwen3Description> = Object.freeze({
  callOpen: "<tool_call>",
  callClose: "</tool_call>",
  bodyPadding: "\n",
  callSeparator: "\n",
  nameKey: "name",
  argumentsKey: "arguments",
});

/**
 * `[text] <tool_call>\n{"name": "NAME", "arguments": ARGS}\n</tool_call>(\n<tool_call>…</tool_call>)*` — free text
 * (never containing `<tool_call>`) first, then the calls, and nothing after the last call. The call body is an
 * alternative over the allowed tools, so each name selects its own arguments grammar.
 */
export const qwen3Envelope: Envelope<Qwen3Description> = {
  format: "qwen3",
  description: QWEN3,
  ruleNames: ["root", "tool-call", "free-text"],
  grammar(input: EnvelopeGrammarInput): GExpr {
    const d = QWEN3;
    const { style, policy } = input;
    const text = policy.freeText ? input.addRule("free-text", textWithout(d.callOpen)) : lit("");
    if (policy.maxCalls === 0 || input.tools.length === 0) return text;

    const bodies = input.tools.map((t) =>
      seq(
        style.objectOpen,
        lit(quoteJsonString(d.nameKey)), style.keySeparator, lit(quoteJsonString(t.name)),
        style.itemSeparator,
        lit(quoteJsonString(d.argumentsKey)), style.keySeparator, t.arguments,
        style.objectClose,
      ),
    );
    const call = input.addRule("tool-call", seq(token(d.callOpen), lit(d.bodyPadding), alt(...bodies), lit(d.bodyPadding), token(d.callClose)));
    const more = rep(seq(lit(d.callSeparator), call), 0, policy.maxCalls === null ? null : policy.maxCalls - 1);
    const calls = seq(call, more);
    return seq(text, policy.minCalls === 0 ? opt(calls) : calls);
  },
};
