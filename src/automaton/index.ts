export { createMatcher, compileAutomaton, maskTableFor, type MatcherOptions } from "./createMatcher.js";
export { TokenMatcher } from "./TokenMatcher.js";
export { Automaton, type AutomatonOptions } from "./Automaton.js";
export { MaskTable } from "./MaskTable.js";
