import type { Automaton } from "./Automaton.js";

/**
 * How many frames of configuration `c`'s deepest-nesting stack are entries of a frame already below them (an array
 * in an array, a value in a value): the prefetch does not follow a byte into more nesting than it came from.
 */
export function nestingRepeats(A: Automaton, c: number): number {
  let most = 0;
  for (const st of A.stacksOf(c)) {
    let n = 0;
    for (let x = st; x >= 0; x = A.stackParent(x)) {
      const f = A.nfa.stateFrame[A.rsStates(A.stackTop(x))[0]];
      for (let y = A.stackParent(x); y >= 0; y = A.stackParent(y)) {
        if (A.nfa.stateFrame[A.rsStates(A.stackTop(y))[0]] === f) {
          n++;
          break;
        }
      }
    }
    if (n > most) most = n;
  }
  return most;
}
