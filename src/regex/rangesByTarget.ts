/**
 * A DFA state's transitions (`[lo, hi, to]` triples, as `trans[q]` holds them) grouped by target state: one class of
 * byte ranges per edge, so a rule writes each target once.
 */
export function rangesByTarget(trans: readonly number[]): Map<number, number[]> {
  const byTarget = new Map<number, number[]>();
  for (let i = 0; i < trans.length; i += 3) {
    const r = byTarget.get(trans[i + 2]);
    if (r) r.push(trans[i], trans[i + 1]);
    else byTarget.set(trans[i + 2], [trans[i], trans[i + 1]]);
  }
  return byTarget;
}
