import { type NormalizeContext, refuse } from "./NormalizeContext.js";
import { anyNode } from "./nodes.js";
import type { SchemaNode } from "./SchemaNode.js";

/** Most derived definitions in one normalization: each is a grammar rule, and a key need not repeat in general. */
export const MAX_DERIVED_DEFS = 64;

/**
 * A definition derived from a recursive one (its intersection with sibling constraints, its complement), built once
 * per key and referred to by a `ref`: the recursion is unfolded lazily, one level per use, and a level that meets the
 * same pair again refers back to the definition being built (a product of the two recursions, finite because its keys
 * are). When the recursive definition is itself still being normalized (a `$ref` to an enclosing schema), the body
 * is built once normalization has finished (`buildPendingDefs`).
 *
 * @param key What the definition is (the operation and its operands); equal keys give the same definition.
 * @param build The derived body from the recursive definition's body; may throw (a refusal, or a failed probe).
 * @param superset What non-strict mode uses beyond MAX_DERIVED_DEFS (a superset of the derived definition).
 */
export function derivedRef(
  ctx: NormalizeContext,
  key: string,
  target: string,
  path: string,
  build: (def: SchemaNode) => SchemaNode,
  superset: SchemaNode,
): SchemaNode {
  let id = ctx.derived.get(key);
  if (id === undefined) {
    if (ctx.derived.size >= MAX_DERIVED_DEFS) {
      // combinations of combinations (a complement inside the definition it complements) need not repeat a key
      refuse(
        ctx,
        "$ref",
        path,
        `combining the recursive definition ${target || "#"} with other constraints needs more than ${MAX_DERIVED_DEFS} derived definitions`,
      );
      return superset;
    }
    id = `${target}#${ctx.derived.size + 1}`;
    ctx.derived.set(key, id);
    const def = ctx.defs.get(target);
    if (def === undefined) ctx.pendingDefs.push({ id, key, target, path, build });
    // a build that throws leaves the id without a body (see buildPendingDefs): refs to it may already be cached
    else ctx.defs.set(id, build(def));
  }
  return { kind: "ref", path, target: id };
}

/** Builds the derived definitions whose recursive definition was still being normalized when they were asked for. */
export function buildPendingDefs(ctx: NormalizeContext): void {
  let stalled = 0;
  while (ctx.pendingDefs.length) {
    const p = ctx.pendingDefs.shift()!;
    const def = ctx.defs.get(p.target);
    if (def === undefined) {
      // another pending definition: once every pending one was tried without progress, none can be built
      if (++stalled > ctx.pendingDefs.length) throw new Error(`internal: definition ${p.target} was never built`);
      ctx.pendingDefs.push(p);
      continue;
    }
    stalled = 0;
    ctx.defs.set(p.id, p.build(def));
  }
  // a build that failed inside a probe (strict mode refuses the schema then; non-strict goes on with a superset):
  // any value is a superset of the intersection or complement it stood for
  for (const id of ctx.derived.values()) {
    if (ctx.defs.has(id)) continue;
    refuse(ctx, "$ref", ctx.basePath, `a combination with the recursive definition ${id} could not be built exactly`);
    ctx.defs.set(id, anyNode(ctx.basePath));
  }
}
