export type { StringLowerContext } from "./lowerStringContent.js";
export {
  lowerStringContent,
  lowerStringValue,
  MAX_INLINE_EXPR_SIZE,
  MAX_STRING_EXPR_SIZE,
} from "./lowerStringContent.js";
export { STRING_FORMATS } from "./stringFormats.js";
export { spellClass, spellCodePoint, spellExpr } from "./jsonSpelling.js";
export { parsePattern } from "./parsePattern.js";
