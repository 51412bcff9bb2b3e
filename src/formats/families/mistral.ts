import type { FormatDescription } from "../FormatDescription.js";
import { jsonObject, plain } from "../descriptionParts.js";

/** Mistral's control tokens (Tekken / v7+ tokenizers): each is one special token. */
const MISTRAL_TOKENS = ["[TOOL_CALLS]", "[ARGS]", "[CALL_ID]", "[THINK]", "[/THINK]"];

/** What Mistral's tokenizers generate as call ids: 9 alphanumerics (mistral-common's `random_uuid()[:9]`-style ids). */
const MISTRAL_ID = { alphabet: "alphanumeric", minLength: 9, maxLength: 9 } as const;

/**
 * Magistral / Ministral 3 Reasoning: `[THINK]R[/THINK]` before the calls (their templates' own markers). Optional by
 * default: `[THINK]` is a control token only the reasoning models write, so a reply starting with it is reasoning.
 */
const MISTRAL_THINK = { open: "[THINK]", close: "[/THINK]", defaultMode: "optional" } as const;

/**
 * Mistral v11+ tokenizers (Ministral 3, Magistral, Devstral): each call is `[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}`,
 * calls written one after another, with reasoning as `[THINK]…[/THINK]` where the model has it.
 */
export const mistralV11: FormatDescription = {
  ...plain,
  name: "mistral-v11",
  family: "Ministral 3, Magistral, Devstral (Mistral v11+ tokenizers; reasoning `[THINK]…[/THINK]`)",
  // the proposed name formatFromChatTemplate gave the layout before it was described; llama.cpp's former chat format
  // "Magistral" (chosen for templates with [THINK]): Magistral's own template writes this layout, though that handler
  // constrained a `[TOOL_CALLS][{…}]` list (docs/formats.md)
  aliases: ["mistral_args", "Magistral"],
  open: "[TOOL_CALLS]",
  close: null,
  specialTokens: MISTRAL_TOKENS,
  grouping: "block",
  unit: { kind: "name-then-json", argumentsMarker: "[ARGS]", namePattern: /^[A-Za-z0-9_.-]{1,64}$/ },
  reasoning: MISTRAL_THINK,
};

/** Mistral Small 3.2: `[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Paris"}`, the id written when the call has one. */
export const mistralV11CallId: FormatDescription = {
  ...mistralV11,
  name: "mistral-v11-call-id",
  family: "Mistral Small 3.2 (`[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}`, 9-character ids)",
  aliases: ["mistral_args_call_id"],
  unit: {
    kind: "name-then-json",
    argumentsMarker: "[ARGS]",
    namePattern: /^[A-Za-z0-9_.-]{1,64}$/,
    idMarker: "[CALL_ID]",
    idForm: MISTRAL_ID,
  },
  reasoning: null,
};

/**
 * Mistral Nemo: `[TOOL_CALLS][{"name": "f", "arguments": {…}, "id": "a1b2c3d4e"}, …]`, the id last (Mistral v0.3's
 * `mistral` format writes it after the name), 9 alphanumerics as its template requires.
 */
export const mistralNemo: FormatDescription = {
  ...plain,
  name: "mistral-nemo",
  family: 'Mistral Nemo (`[TOOL_CALLS][{"name", "arguments", "id"}]`, the id last)',
  // llama.cpp's former chat-format name
  aliases: ["mistral_nemo", "Mistral Nemo"],
  open: "[TOOL_CALLS]",
  close: null,
  specialTokens: ["[TOOL_CALLS]"],
  grouping: "list",
  unit: { ...jsonObject("arguments", "id"), idPosition: "last", idForm: MISTRAL_ID },
};
