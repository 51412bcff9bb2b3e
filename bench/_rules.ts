import { compileTools } from "../src/compile.js";
import { twentyOpenAiTools } from "./toolSets.js";
import { toGbnf } from "../src/emit/toGbnf.js";
import { compileAutomaton } from "../src/automaton/createMatcher.js";
const c = compileTools(twentyOpenAiTools(), { format: "qwen3" });
console.log(toGbnf(c.grammar).split("\n").filter(l => !/^t(ool)?-?\d/.test(l) || /tool-0-/.test(l)).join("\n").slice(0, 3500));
console.log(compileAutomaton(c.grammar, { specialTokens: c.specialTokens }).nfa.frameNames);
