import { type NormalizeContext, ProbeAbort } from "./NormalizeContext.js";
import type { ObjectNode, SchemaNode } from "./SchemaNode.js";
import { intersect } from "./intersect.js";

/**
 * The most `patternProperties` of one object whose overlaps are built: every subset of two or more needs its own
 * intersection and its own key language (2^k − k − 1 of them: 11 for 4).
 */
export const MAX_OVERLAPPING_PATTERNS = 4;

/**
 * For every subset of two or more of an object's `patternProperties` (`members`: their indices, as a bit set), the
 * schema a key matching all of them (and no other) must satisfy: the intersection of theirs. A subset whose
 * intersection the IR cannot express exactly is left out, and so are its keys (fewer texts, never an invalid one).
 * Returns undefined above MAX_OVERLAPPING_PATTERNS patterns or with fewer than two.
 */
export function patternOverlaps(
  ctx: NormalizeContext,
  pps: ObjectNode["patternProperties"],
): ObjectNode["patternOverlaps"] {
  const k = pps.length;
  if (k < 2 || k > MAX_OVERLAPPING_PATTERNS) return undefined;
  const out: NonNullable<ObjectNode["patternOverlaps"]> = [];
  for (let members = 1; members < 1 << k; members++) {
    if ((members & (members - 1)) === 0) continue; // one pattern: its own schema
    const schemas = pps.filter((_, i) => members & (1 << i)).map((p) => p.schema);
    const schema = tryIntersect(ctx, schemas);
    if (schema !== undefined) out.push({ members, schema });
  }
  return out;
}

function tryIntersect(ctx: NormalizeContext, schemas: SchemaNode[]): SchemaNode | undefined {
  ctx.probing++;
  try {
    return schemas.reduce((a, b) => intersect(ctx, a, b, a.path));
  } catch (e) {
    if (e instanceof ProbeAbort) return undefined;
    throw e;
  } finally {
    ctx.probing--;
  }
}
