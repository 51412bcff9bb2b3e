import { LimitExceededError } from "../errors.js";
import type { Counted } from "../grammar/Grammar.js";

/**
 * The refusal of a text emitter (GBNF, Lark, EBNF, regex) for a counted node: the length bound is exact only as a
 * counter beside the automaton, which these notations lack, and written out as rules it is the whole product (see
 * `Counted`). The token matcher enforces it; the message says so and names the schema.
 */
export function countedRefusal(e: Counted, notation: string): LimitExceededError {
  return new LimitExceededError(
    "LIMIT_GRAMMAR_SIZE",
    `${notation} cannot hold this string's length bound (${e.min}..${e.max} characters over a ${e.states.length}-state pattern/format) without a rule per state and length; the token matcher (matcher(), generateToolCalls, toolgram serve) enforces it exactly, or lower maxLength to emit ${notation}`,
    e.path,
  );
}
