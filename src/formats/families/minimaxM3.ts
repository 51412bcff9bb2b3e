import type { FormatDescription } from "../FormatDescription.js";
import { PLAIN_FIELDS } from "./plainFields.js";

/**
 * MiniMax M3, as its chat template renders calls: every tag led by the namespace text `]<]minimax[>[` (P), one section
 * `P<tool_call>\n` … `\nP</tool_call>` holding every call of the turn, each call `P<invoke name="NAME">` followed by
 * one element per argument named by the argument (`P<city>Paris P</city>`, without the space) and `P</invoke>`, calls
 * joined by `\n`. Objects and arrays are nested elements (`P<item>…P</item>` per item), strings raw, numbers and
 * booleans their JSON text (XmlElementsUnit, src/formats/xmlElementValues.ts), each typed by the parameter's schema.
 *
 * What the template cannot write back exactly is kept out rather than guessed (src/lower/lowerXmlElements.ts):
 * - null: the template drops null members, so grammars never write one (a property admitting only null that is
 *   required is refused at compile time, UNSUPPORTED_KEYWORD naming its path) and renderToolCalls refuses a null member
 *   (INVALID_INPUT); a null array item is the template's empty `P<item>P</item>`, written only where the item schema
 *   admits no string, object or array (whose empty forms come first);
 * - a string beside numbers or booleans in the same schema never spells one (`42` reads as the number), and an empty
 *   element is "" before {} before [] (the other forms are written non-empty);
 * - undeclared keys (additionalProperties, patternProperties, an open `{type: "object"}`): a closing tag repeats its
 *   key, which no grammar can match for keys it does not know, so grammars write only declared properties (warning
 *   NARROWED); keys that cannot be tags (`<`, `>`, a leading `/`, the format's own `invoke` and `tool_call`) and a
 *   property named `item` in a schema that also admits arrays are refused (UNSUPPORTED_KEYWORD).
 * The template's generation prompt opens nothing: the model writes `<mm:think>R</mm:think>`, or `</mm:think>` alone
 * when it does not think (`closeAlone`). vLLM's tool parser and reasoning parser for it are both `minimax_m3`.
 */
export const minimaxM3: FormatDescription = {
  ...PLAIN_FIELDS,
  name: "minimax-m3",
  family: "MiniMax M3 (`]<]minimax[>[`-prefixed tags, arguments as nested XML elements)",
  // vLLM: minimax_m3 (tool parser and reasoning parser); llama.cpp's chat format "peg-minimax-m3" (its parser of this
  // template, common/chat-peg-parser.cpp)
  aliases: ["minimax_m3", "peg-minimax-m3"],
  grouping: "block",
  section: { open: "]<]minimax[>[<tool_call>\n", close: "\n]<]minimax[>[</tool_call>" },
  open: ']<]minimax[>[<invoke name="',
  close: "]<]minimax[>[</invoke>",
  blockSeparator: "\n",
  unit: { kind: "xml-elements", nameClose: '">', tagPrefix: "]<]minimax[>[", itemTag: "item" },
  reasoning: { open: "<mm:think>", close: "</mm:think>", defaultMode: "optional", closeAlone: true },
};
