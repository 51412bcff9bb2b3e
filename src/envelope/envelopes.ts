import { ToolgramError } from "../errors.js";
import type { Envelope } from "./Envelope.js";
import { qwen3Envelope } from "./qwen3.js";

/** The wire formats `compileTools` can build grammars for. */
export const ENVELOPES = { qwen3: qwen3Envelope } as const satisfies Record<string, Envelope>;

export type EnvelopeFormat = keyof typeof ENVELOPES;

/** The envelope of a format name; INVALID_OPTION for an unknown one. */
export function envelopeFor(format: string): Envelope {
  if (!Object.hasOwn(ENVELOPES, format)) {
    throw new ToolgramError("INVALID_OPTION", `unknown format ${JSON.stringify(format)}; supported: ${Object.keys(ENVELOPES).join(", ")}`);
  }
  return ENVELOPES[format as EnvelopeFormat];
}
