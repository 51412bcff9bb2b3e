import type { FormatDescription } from "../FormatDescription.js";

/**
 * Kimi K3, as its chat template writes a turn: tags built from `<|open|>`, `<|close|>` and `<|sep|>`. The generation
 * prompt opens the reasoning (`<|open|>think<|sep|>`), which the model closes before its response section; calls go
 * after the response, in one `tools` section, one tagged parameter per argument with the value's JSON type:
 * `R<|close|>think<|sep|><|open|>response<|sep|>TEXT<|close|>response<|sep|><|open|>tools<|sep|><|open|>call tool="NAME" index="1"<|sep|><|open|>argument key="K" type="string"<|sep|>V<|close|>argument<|sep|>…<|close|>call<|sep|>…<|close|>tools<|sep|>`,
 * then the message's end `<|close|>message<|sep|><|end_of_msg|>`, as after a turn of text (the turn's end). String values raw, other values JSON; `index` counts the turn's calls from 1 (the call's id).
 * The template writes `&`, `"` in names and keys as `&amp;`, `&quot;`; this description writes them as they are.
 */
export const kimiK3: FormatDescription = {
  name: "kimi-k3",
  family: 'Kimi K3 (`call tool="NAME" index="N"` tags, arguments with their JSON types)',
  // the name formatFromChatTemplate proposes (vLLM's and llama.cpp's spelling of the family's formats)
  aliases: ["kimi_k3"],
  section: { open: "<|close|>response<|sep|><|open|>tools<|sep|>", close: "<|close|>tools<|sep|>" },
  open: '<|open|>call tool="',
  close: "<|close|>call<|sep|>",
  startPrefixes: [],
  // llama.cpp preserves `<|open|>`, `<|close|>`, `<|sep|>`, `<|end_of_msg|>` as tokens; with no Kimi K3 vocabulary at
  // hand to check them against, grammars write them as text
  specialTokens: [],
  grouping: "block",
  afterOpen: "",
  beforeClose: "",
  blockSeparator: "",
  unit: {
    kind: "xml-parameters",
    nameOpen: "",
    nameClose: '" index="',
    callIndex: { close: '"<|sep|>', base: 1 },
    keyOpen: '<|open|>argument key="',
    keyClose: '" type="',
    valueType: { close: '"<|sep|>' },
    valueClose: "<|close|>argument<|sep|>",
    callClose: "",
  },
  maxCalls: Infinity,
  // the prompt always opens the block: formatFromChatTemplate reads `required` with an empty opening
  reasoning: {
    open: "<|open|>think<|sep|>",
    close: "<|close|>think<|sep|><|open|>response<|sep|>",
    defaultMode: "none",
  },
};
