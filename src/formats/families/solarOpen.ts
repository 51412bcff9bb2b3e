import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/**
 * Upstage Solar Open: `<|tool_calls|>` then, per call,
 * `<|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>`, then `<|calls|>`, which ends
 * the turn (as its chat template renders calls, and as its system prompt tells the model to write them). The id comes
 * first and the template writes the call's own id; a call without one writes `<|tool_call:name|>` right after
 * `<|tool_call:begin|>`. Tool names are read up to `<|tool_call:args|>`, so they must match `namePattern`.
 * Reasoning is a message of its own before the calls, as the template writes the message's `reasoning` after the
 * generation prompt `<|begin|>assistant`: `<|think|>R<|end|><|begin|>assistant`, then the calls. The markers are
 * written as text: no Solar Open vocabulary is at hand to check them as tokens.
 */
export const solarOpen: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "solar-open",
  family: "Upstage Solar Open (`<|tool_call:begin|>ID<|tool_call:name|>NAME<|tool_call:args|>{…}<|tool_call:end|>`)",
  // the template's proposed name
  aliases: ["solar_open"],
  grouping: "block",
  section: { open: "<|tool_calls|>", close: "<|calls|>" },
  open: "<|tool_call:begin|>",
  close: "<|tool_call:end|>",
  unit: {
    kind: "name-then-json",
    argumentsMarker: "<|tool_call:args|>",
    namePattern: /^[A-Za-z0-9_.-]{1,64}$/,
    idMarker: "<|tool_call:name|>",
    idFirst: true,
  },
  reasoning: { open: "<|think|>", close: "<|end|><|begin|>assistant", defaultMode: "optional" },
};
