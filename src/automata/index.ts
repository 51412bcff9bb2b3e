export type { RNode } from "./Regex.js";
export { R_EMPTY, R_NEVER, rAlt, rChars, rLit, rRep, rSeq, hasAnchor, expansionSize } from "./Regex.js";
export type { Nfa } from "./Nfa.js";
export { buildNfa } from "./Nfa.js";
export type { Dfa } from "./Dfa.js";
export { complement, determinize, dfaAccepts, intersect, isEmpty, lengthRange, minimize, trim } from "./Dfa.js";
export { dfaToExpr, exprSize, MAX_ELIMINATION_STATES } from "./dfaToExpr.js";
export { dfaToRules } from "./dfaToRules.js";
