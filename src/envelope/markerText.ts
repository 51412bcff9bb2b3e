import type { GExpr } from "../grammar/Grammar.js";
import { lit, seq, token } from "../grammar/build.js";

/** `text` with every occurrence of one of the format's special tokens as a token node, the rest literal. */
export function markerText(text: string, specialTokens: readonly string[]): GExpr {
  const parts: GExpr[] = [];
  let i = 0;
  let plain = "";
  while (i < text.length) {
    const tok = specialTokens.find((t) => t !== "" && text.startsWith(t, i));
    if (tok === undefined) {
      plain += text[i++];
      continue;
    }
    if (plain !== "") parts.push(lit(plain));
    plain = "";
    parts.push(token(tok));
    i += tok.length;
  }
  if (plain !== "") parts.push(lit(plain));
  return seq(...parts);
}
