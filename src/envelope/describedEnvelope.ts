import { ToolgramError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, cls, lit, opt, rep, seq, token } from "../grammar/build.js";
import { quoteJsonString } from "../json.js";
import type { FormatDescription } from "../parser/formats/FormatDescription.js";
import type { ArgumentSpelling, Envelope, EnvelopeGrammarInput, EnvelopeTool } from "./Envelope.js";
import { textNotOpeningCall } from "./textNotOpeningCall.js";
import { textWithout } from "./textWithout.js";

/** Call ids the grammar lets the model write: Mistral's 9 alphanumerics, `call_…` ids and the like (no escapes). */
const ID_CHARS = cls([0x2d, 0x2d, 0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
export const MAX_ID_LENGTH = 64;

/**
 * The envelope of a format from its parser description (src/parser/formats/descriptions.ts): the grammar emits
 * exactly the canonical text the description defines (see FormatDescription) around the per-tool argument rules, so
 * strict parsing reads every text the grammar accepts. Decisions the description leaves open:
 * - Free text comes before the calls. With an opening marker it never contains the marker (as for Qwen3). Without
 *   one (llama3-json, pythonic: the call is the whole reply) text and calls are alternatives: the text must not
 *   start like a call (see textNotOpeningCall), and a required call cannot have text before it (INVALID_OPTION
 *   for `freeText: true` there).
 * - The policy's call bound is capped by the format's (`maxCalls: 1` for llama3-json), so `parallel: true` still
 *   compiles, to at most one call.
 * - A list body (tools-array, mistral, pythonic) is one block of 1..maxCalls calls; no calls is no block.
 * - Formats with an id key get an optional id, 1–64 characters of `[A-Za-z0-9_-]`, after the name.
 * - Markers listed in the description's `specialTokens` are token nodes; the rest is plain text.
 * Nothing follows the last call.
 */
export function describedEnvelope(d: FormatDescription, argumentSpelling?: ArgumentSpelling): Envelope<FormatDescription> {
  const marker = (m: string | null): GExpr => (m === null ? lit("") : d.specialTokens.includes(m) ? token(m) : lit(m));
  return {
    format: d.name,
    description: d,
    ruleNames: ["root", "tool-call", "free-text", "call-id"],
    ...(argumentSpelling ? { argumentSpelling } : {}),
    grammar(input: EnvelopeGrammarInput): GExpr {
      const { policy } = input;
      const limit = Math.min(policy.maxCalls ?? Infinity, d.maxCalls);
      const maxCalls = Number.isFinite(limit) ? limit : null;
      const callsPossible = maxCalls !== 0 && input.tools.length > 0;
      if (d.open === null && policy.freeText && policy.minCalls > 0 && callsPossible) {
        throw new ToolgramError("INVALID_OPTION", `format ${d.name}: the call is the whole reply, so there is no free text before a required call; drop freeText: true or use toolChoice "auto"`);
      }
      const text = policy.freeText ? input.addRule("free-text", d.open === null ? textNotOpeningCall(d) : textWithout(d.open)) : lit("");
      if (!callsPossible) return text;

      const unit = input.addRule("tool-call", alt(...input.tools.map((t) => callUnit(d, t, input))));
      const more = (sep: GExpr): GExpr => rep(seq(sep, unit), 0, maxCalls === null ? null : maxCalls - 1);
      let calls: GExpr;
      if (d.body === "object") {
        const block = seq(marker(d.open), lit(d.afterOpen), unit, lit(d.beforeClose), marker(d.close));
        calls = seq(block, rep(seq(lit(d.blockSeparator), block), 0, maxCalls === null ? null : maxCalls - 1));
      } else {
        const list = d.body === "array" ? [input.style.arrayOpen, unit, more(input.style.itemSeparator), input.style.arrayClose] : [lit("["), unit, more(lit(", ")), lit("]")];
        calls = seq(marker(d.open), lit(d.afterOpen), ...list, lit(d.beforeClose), marker(d.close));
      }
      if (d.open === null) return policy.minCalls === 0 ? alt(text, calls) : calls;
      return seq(text, policy.minCalls === 0 ? opt(calls) : calls);
    },
  };
}

/** One call as the format writes it (renderCallUnit's text without the block's padding). */
function callUnit(d: FormatDescription, t: EnvelopeTool, input: EnvelopeGrammarInput): GExpr {
  if (d.body === "python-list") return seq(lit(t.name), t.arguments);
  const s = input.style;
  const key = (k: string): GExpr => seq(lit(quoteJsonString(k)), s.keySeparator);
  const id = d.idKey === null ? lit("") : opt(input.addRule("call-id", seq(s.itemSeparator, key(d.idKey), lit('"'), rep(ID_CHARS, 1, MAX_ID_LENGTH), lit('"'))));
  const args = d.argumentsEncoding === "single-quoted-json" ? seq(lit("'"), t.arguments, lit("'")) : t.arguments;
  return seq(s.objectOpen, key(d.nameKey), lit(quoteJsonString(t.name)), id, s.itemSeparator, key(d.argumentsKey), args, s.objectClose);
}
