import { twentyToolGrammar } from "./handGrammars.js";
import { Automaton } from "../src/automaton/Automaton.js";
import { buildNfa } from "../src/automaton/buildNfa.js";
for (let i = 0; i < 4; i++) {
  let t = performance.now();
  const g = twentyToolGrammar();
  let t1 = performance.now();
  buildNfa(g, { specialTokens: "token-or-text", maxStates: 1e6 });
  let t2 = performance.now();
  const a = new Automaton(g);
  console.log("grammar", (t1 - t).toFixed(1), "nfa", (t2 - t1).toFixed(1), "automaton", (performance.now() - t2).toFixed(1), a.nfa.stateCount);
}
