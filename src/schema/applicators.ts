import { type NormalizeContext, ProbeAbort, refuse } from "./NormalizeContext.js";
import type { ObjectNode, SchemaNode } from "./SchemaNode.js";
import { NotRepresentable, complement } from "./complement.js";
import { disjoint } from "./disjoint.js";
import { intersect } from "./intersect.js";
import { relativeComplement } from "./relativeComplement.js";
import { KINDS, anyNode, makeUnion, never, plainKind, plainObject } from "./nodes.js";
import { childPath } from "../util/jsonPointer.js";

/** `complement`, or the reason the IR cannot express it. */
function tryComplement(ctx: NormalizeContext, n: SchemaNode, path: string): SchemaNode | string {
  ctx.probing++;
  try {
    return complement(ctx, n, path);
  } catch (e) {
    if (e instanceof NotRepresentable || e instanceof ProbeAbort) return e.message;
    throw e;
  } finally {
    ctx.probing--;
  }
}

/** `intersect`, or the reason it cannot be done exactly. */
function tryIntersect(ctx: NormalizeContext, a: SchemaNode, b: SchemaNode, path: string): SchemaNode | string {
  ctx.probing++;
  try {
    return intersect(ctx, a, b, path);
  } catch (e) {
    if (e instanceof ProbeAbort) return e.message;
    throw e;
  } finally {
    ctx.probing--;
  }
}

/** `universe ∩ ¬n` (relativeComplement), or the reason it cannot be expressed. */
function tryRelative(ctx: NormalizeContext, universe: SchemaNode, n: SchemaNode, path: string): SchemaNode | string {
  ctx.probing++;
  try {
    return relativeComplement(ctx, universe, n, path);
  } catch (e) {
    if (e instanceof NotRepresentable || e instanceof ProbeAbort) return e.message;
    throw e;
  } finally {
    ctx.probing--;
  }
}

/**
 * `oneOf`: exactly one branch matches. Pairwise-disjoint branches make it a plain union. Otherwise each overlapping
 * branch is narrowed by the complements of the branches it overlaps (B_i ∩ ¬B_j ...), which is exact when those
 * complements are expressible, in general or within B_i (relativeComplement); else refused (strict) or read as
 * `anyOf` (non-strict, a superset).
 */
export function normalizeOneOf(
  ctx: NormalizeContext,
  branches: SchemaNode[],
  path: string,
  exact: boolean,
): SchemaNode {
  const live = branches.map((b, i) => ({ b, i })).filter((x) => x.b.kind !== "never");
  const overlaps = new Map<number, number[]>();
  const pairs: string[] = [];
  for (let x = 0; x < live.length; x++) {
    for (let y = x + 1; y < live.length; y++) {
      if (disjoint(ctx, live[x].b, live[y].b)) continue;
      pairs.push(`${live[x].i} and ${live[y].i}`);
      overlaps.set(live[x].i, [...(overlaps.get(live[x].i) ?? []), live[y].i]);
      overlaps.set(live[y].i, [...(overlaps.get(live[y].i) ?? []), live[x].i]);
    }
  }
  if (!pairs.length)
    return makeUnion(
      path,
      live.map((x) => x.b),
    );
  const narrowed: SchemaNode[] = [];
  let ok = exact; // complements of over-approximated branches would be under-approximations
  let why = exact ? "" : "; a branch is itself over-approximated";
  const complements = new Map<number, SchemaNode | string>();
  for (const { b, i } of ok ? live : []) {
    let acc = b;
    for (const j of overlaps.get(i) ?? []) {
      let c = complements.get(j);
      if (c === undefined) {
        c = tryComplement(ctx, branches[j], path);
        complements.set(j, c);
      }
      // no complement of its own: branch i may still bound it (a closed object's finite keys)
      const next = typeof c === "string" ? tryRelative(ctx, acc, branches[j], path) : tryIntersect(ctx, acc, c, path);
      if (typeof next === "string") {
        ok = false;
        why =
          typeof c === "string"
            ? `; branch ${j} has no exact complement: ${c}${next === c ? "" : ` (within branch ${i}: ${next})`}`
            : `; combining branch ${i} with the complement of branch ${j}: ${next}`;
        break;
      }
      acc = next;
    }
    if (!ok) break;
    narrowed.push(acc);
  }
  if (ok) return makeUnion(path, narrowed);
  refuse(
    ctx,
    "oneOf",
    path,
    `branches ${pairs.slice(0, 5).join(", ")}${pairs.length > 5 ? ", ..." : ""} may both match a value, and "exactly one" cannot be enforced${why}; make the branches disjoint (e.g. a required property with different const values) or use anyOf`,
  );
  return makeUnion(
    path,
    live.map((x) => x.b),
  );
}

/** `not`: the complement, or (non-strict) anything when it cannot be expressed. */
export function normalizeNot(ctx: NormalizeContext, inner: SchemaNode, path: string, exact: boolean): SchemaNode {
  const c = exact ? tryComplement(ctx, inner, path) : "the schema inside is itself over-approximated";
  if (typeof c !== "string") return c;
  refuse(ctx, "not", childPath(path, "not"), `its complement cannot be expressed exactly: ${c}`);
  return anyNode(path);
}

/** `if`/`then`/`else` = (if ∩ then) ∪ (¬if ∩ else). */
export function normalizeIf(
  ctx: NormalizeContext,
  cond: SchemaNode,
  then: SchemaNode,
  els: SchemaNode,
  path: string,
  condExact: boolean,
): SchemaNode {
  if (then.kind === "any" && els.kind === "any") return anyNode(path);
  const notCond = condExact ? tryComplement(ctx, cond, path) : "the condition is itself over-approximated";
  if (typeof notCond === "string") {
    refuse(
      ctx,
      "if",
      childPath(path, "if"),
      `the condition's complement cannot be expressed (${notCond}), so the else branch cannot be selected exactly`,
    );
    return makeUnion(path, [then, els]);
  }
  return makeUnion(path, [intersect(ctx, cond, then, path), intersect(ctx, notCond, els, path)]);
}

/** `dependentSchemas: {k: S}` = non-objects ∪ objects without k ∪ (objects with k ∩ S). */
export function normalizeDependentSchema(ctx: NormalizeContext, key: string, s: SchemaNode, path: string): SchemaNode {
  const others = KINDS.filter((k) => k !== "object").map((k) => plainKind(k, path));
  const lacking: ObjectNode = {
    ...plainObject(path),
    properties: [{ key, schema: never(path, `"${key}" absent`), required: false }],
  };
  const having: ObjectNode = { ...plainObject(path), properties: [{ key, schema: anyNode(path), required: true }] };
  return makeUnion(path, [...others, lacking, intersect(ctx, having, s, path)]);
}
