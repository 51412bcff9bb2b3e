import { BoundedMap } from "../util/BoundedMap.js";

/** A lazily built rule frame with no references and no special tokens, as built: states relative to its start. */
export interface BuiltFrame {
  states: number;
  byteFrom: Int32Array;
  byteLo: Uint8Array;
  byteHi: Uint8Array;
  byteTo: Int32Array;
  epsFrom: Int32Array;
  epsTo: Int32Array;
  /** Each state's canonical number in the frame (-1: not reached from its start), as `numberFrames` gave it. */
  canon?: Int32Array;
}
/**
 * Self-contained lazy rule frames already built, by structural key, for every grammar of the process: a bounded
 * number (`"page": ` with `minimum: 1` spells its bound in about 1,000 states) is the same frame in many tool sets, and
 * a copy of its tables costs a fraction of building it. Its construction depends only on its structure (no
 * reference, no special token), so the copy is the NFA the build would make, state for state and edge for edge.
 * Bounded (a few hundred distinct numbers and enums), the least recently used dropped first.
 */
export const builtFrames = new BoundedMap<string, BuiltFrame>({ maxEntries: 512, order: "use" });
