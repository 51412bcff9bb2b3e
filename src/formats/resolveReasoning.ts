import { ToolgramError } from "../errors.js";
import type { FormatDescription, ReasoningMode } from "./FormatDescription.js";

/** The reasoning options shared by `compileTools`, the parser and the renderer. */
export interface ReasoningOptions {
  /**
   * A reasoning block before the calls: `"none"`, `"optional"` (the turn may start with one), `"required"` (it
   * does, also with toolChoice "required"). @defaultValue the format's `reasoning.defaultMode` ("none" without one)
   */
  reasoning?: ReasoningMode;
  /**
   * The block's markers when they differ from the format's (a chat template's own spacing, read by
   * `formatFromChatTemplate`: `{ open: t.reasoningMarkers.start, close: t.reasoningMarkers.end }`). `open: ""`: the
   * generation prompt already opened the block, so the turn starts inside it (`reasoning: "required"` only).
   */
  reasoningMarkers?: { open: string; close: string };
}

/**
 * A reasoning block as grammars and the parser use it; null when the turn has none. Exported from `toolgram`:
 * {@link CompiledGrammar.reasoning} is one, and its fields are what to pass to the parser.
 */
export interface ResolvedReasoning {
  /** `"optional"`: the turn may start with the block; `"required"`: it does. */
  readonly mode: "optional" | "required";
  /** Text that opens the block (`""` when the generation prompt opened it). */
  readonly open: string;
  /** Text that closes the block. */
  readonly close: string;
  /** The text that opens one more block after `close` (ReasoningDescription.again), when the turn may hold several. */
  readonly again?: string;
}

const MODES: readonly ReasoningMode[] = ["none", "optional", "required"];

/** Resolves the reasoning options against a format; INVALID_OPTION naming what is wrong. */
export function resolveReasoning(d: FormatDescription, o: ReasoningOptions): ResolvedReasoning | null {
  const markers = o.reasoningMarkers;
  if (markers !== undefined) {
    if (
      typeof markers !== "object" ||
      markers === null ||
      typeof markers.open !== "string" ||
      typeof markers.close !== "string"
    ) {
      throw new ToolgramError(
        "INVALID_OPTION",
        `reasoningMarkers must be {open: string, close: string}, got ${JSON.stringify(markers)}`,
      );
    }
    if (markers.close === "")
      throw new ToolgramError(
        "INVALID_OPTION",
        "reasoningMarkers.close must not be empty: the reasoning would never end",
      );
  }
  const mode = o.reasoning ?? d.reasoning?.defaultMode ?? "none";
  if (!MODES.includes(mode)) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `reasoning must be "none", "optional" or "required", got ${JSON.stringify(mode)}`,
    );
  }
  if (mode === "none") return null;
  const m = markers ?? d.reasoning;
  if (m === null) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `format ${d.name} has no reasoning block; pass reasoningMarkers: {open, close} (formatFromChatTemplate reads them from a chat template) or reasoning: "none"`,
    );
  }
  if (mode === "optional" && m.open === "") {
    throw new ToolgramError(
      "INVALID_OPTION",
      'reasoning "optional" needs an opening marker: with open "" the prompt has opened the block, so use reasoning: "required"',
    );
  }
  // (a turn of messages: the block is the first message, and its closing marker may open the next one, as Muse
  // Glimmer's `<|eom|><|start|>assistant to=` does)
  if (
    d.open !== null &&
    m.close.includes(d.open) &&
    !(
      d.messages !== undefined &&
      m.close.endsWith(d.open) &&
      m.close.indexOf(d.open) === m.close.length - d.open.length
    )
  ) {
    throw new ToolgramError(
      "INVALID_OPTION",
      `the reasoning's closing marker ${JSON.stringify(m.close)} contains the call marker ${JSON.stringify(d.open)}`,
    );
  }
  // more blocks where the family writes them, with its own markers
  const again = d.reasoning?.again;
  const own = d.reasoning !== null && m.open === d.reasoning.open && m.close === d.reasoning.close;
  return { mode, open: m.open, close: m.close, ...(again !== undefined && own ? { again } : {}) };
}
