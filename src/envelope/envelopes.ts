import { describeFormat } from "../formats/describeFormat.js";
import { FORMAT_DESCRIPTIONS } from "../formats/descriptions.js";
import type { FormatName } from "../formats/FormatName.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { describedEnvelope } from "./describedEnvelope.js";
import type { Envelope } from "./Envelope.js";

/**
 * The wire formats `compileTools` can build grammars for: every described format (src/formats), each envelope
 * built from its description alone.
 */
export const ENVELOPES: Readonly<Record<FormatName, Envelope>> = Object.fromEntries(
  Object.values(FORMAT_DESCRIPTIONS).map((d) => [d.name, describedEnvelope(d)]),
) as Record<FormatName, Envelope>;

/** Envelopes of descriptions passed as the format (derived from templates), built once per description object. */
const ownEnvelopes = new WeakMap<FormatDescription, Envelope>();

/** The envelope of a format name, alias or description; INVALID_OPTION for an unknown name. */
export function envelopeFor(format: unknown): Envelope {
  const d = describeFormat(format);
  const named = FORMAT_DESCRIPTIONS[d.name as FormatName] as FormatDescription | undefined;
  if (named === d) return ENVELOPES[d.name as FormatName];
  let e = ownEnvelopes.get(d);
  if (e === undefined) {
    e = describedEnvelope(d);
    ownEnvelopes.set(d, e);
  }
  return e;
}
