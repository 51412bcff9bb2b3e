import { describeFormat } from "../formats/describeFormat.js";
import { FORMAT_DESCRIPTIONS } from "../formats/descriptions.js";
import type { FormatName } from "../formats/FormatName.js";
import { describedEnvelope } from "./describedEnvelope.js";
import type { Envelope } from "./Envelope.js";

/**
 * The wire formats `compileTools` can build grammars for: every described format (src/formats), each envelope
 * built from its description alone.
 */
export const ENVELOPES: Readonly<Record<FormatName, Envelope>> = Object.fromEntries(
  Object.values(FORMAT_DESCRIPTIONS).map((d) => [d.name, describedEnvelope(d)]),
) as Record<FormatName, Envelope>;

/** The envelope of a format name or alias; INVALID_OPTION for an unknown one. */
export function envelopeFor(format: unknown): Envelope {
  return ENVELOPES[describeFormat(format).name];
}
