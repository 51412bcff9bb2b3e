/** The token ids a mask allows, in increasing order. */
export function allowedIds(bits: Uint32Array): number[] {
  const ids: number[] = [];
  for (let w = 0; w < bits.length; w++)
    for (let x = bits[w]; x !== 0; x &= x - 1) ids.push(w * 32 + (31 - Math.clz32(x & -x)));
  return ids;
}
