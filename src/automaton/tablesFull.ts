import { LimitExceededError } from "../errors.js";

/**
 * A bound of the automaton's tables met while decoding: its own cap (LIMIT_AUTOMATON_SIZE: configurations, R-states,
 * stacks) or one of the engine's (a `Map` past 2^24 entries, an array or typed array past its length). Both mean
 * the tables are full, not that the grammar is wrong: the decoding starts them afresh and goes on.
 */
export function tablesFull(e: unknown): boolean {
  if (e instanceof LimitExceededError) return e.code === "LIMIT_AUTOMATON_SIZE";
  return (
    e instanceof RangeError && /maximum size|Invalid (typed )?array length|Array buffer allocation/i.test(e.message)
  );
}
