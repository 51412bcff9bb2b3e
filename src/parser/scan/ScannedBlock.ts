/** One call unit of a list block: [start, end) relative to the block's start, and its stream slot. */
export interface UnitSpan {
  start: number;
  end: number;
  slot: number;
}

/**
 * How a block ended: `closed` by its marker (or, without one, by its value's last bracket); `eof`: the input ended
 * inside it; `interrupted`: a new opening marker came first; `novalue`: a block without a closing marker had no
 * bracketed value.
 */
export type BlockEnd = "closed" | "eof" | "interrupted" | "novalue";

/** What the scanner hands the assembler: a block's text and layout, no judgement about its calls yet. */
export interface ScannedBlock {
  /** Offset of the block (its opening marker, or its first character) in the whole input. */
  readonly start: number;
  /** The block's text, from `start`: the opening marker (or start prefix) and the body (and the closing marker). */
  text: string;
  /** Offset in `text` where the body begins, after the opening marker / start prefix. */
  readonly bodyStart: number;
  /** `grouping: "block"`: the stream slot of its call; -1 for lists (each unit has its own). */
  readonly slot: number;
  /** `grouping: "list"`: the units, in order. */
  units: UnitSpan[];
  end: BlockEnd;
  /** The block is complete: closed by its marker or bracket (or cut at its marker by the tolerant re-reading). */
  closed: boolean;
  /** An array format's body was one bare call object instead of a list. */
  readonly bare: boolean;
  /** The list ended with a comma before its closing bracket. */
  readonly trailingComma: boolean;
  /** The list had an empty element (`[a, , b]`). */
  readonly emptyElement: boolean;
}
