import type { Diagnostic } from "../diagnostic.js";
import { UnsupportedSchemaError, type ToolgramErrorCode } from "../errors.js";
import type { Deadline } from "../Deadline.js";
import type { ResolvedSchemaOptions } from "../options.js";
import type { ObjectNode, SchemaNode } from "./SchemaNode.js";
import type { Draft } from "./keywords.js";
import type { RefIndex } from "./refIndex.js";

/** State shared by one normalization run. */
export interface NormalizeContext {
  opts: ResolvedSchemaOptions;
  warnings: Diagnostic[];
  basePath: string;
  root: unknown;
  draft: Draft;
  refs: RefIndex;
  defs: Map<string, SchemaNode>;
  /** Pointers whose normalization is under way (a `$ref` to one of them is recursion). */
  inProgress: Set<string>;
  /** Pointers found to be recursive: they become `defs` entries. */
  recursive: Set<string>;
  /** Finished normalizations by pointer (a `$ref` used many times is normalized once). */
  memo: Map<string, SchemaNode>;
  /** Object nodes whose `additionalProperties` was not stated (the `additionalProperties: "forbid"` option closes them). */
  openByDefault: WeakSet<ObjectNode>;
  depth: number;
  refDepth: number;
  /** While probing (e.g. oneOf disjointness) an unsupported step aborts the probe instead of warning. */
  probing: number;
  /**
   * Over-approximations made so far (non-strict). A superset must not be complemented (`not`, `if`), so callers
   * compare this count before and after normalizing a subschema to learn whether its node is exact.
   */
  relaxations: number;
  /** Pointers whose (memoized) node is an over-approximation. */
  inexact: Set<string>;
  /** Definitions derived from recursive ones (derivedDefs.ts): their id by key. */
  derived: Map<string, string>;
  /** Derived definitions waiting for the recursive definition they are built from. */
  pendingDefs: PendingDef[];
  /** Intersections performed so far (bounded by MAX_INTERSECT_STEPS). */
  steps: number;
  /** The compile's time budget, ticked per subschema and per intersection. */
  deadline: Deadline;
  /** Normalizes the subschema found at `pointer` (relative to the document root). */
  sub: (schema: unknown, pointer: string) => SchemaNode;
}

/** A derived definition (derivedDefs.ts) whose recursive definition `target` is still being normalized. */
export interface PendingDef {
  id: string;
  key: string;
  target: string;
  path: string;
  build: (def: SchemaNode) => SchemaNode;
}

/** Thrown inside a probe when an exact answer is not available. */
export class ProbeAbort extends Error {}

/**
 * Something valid that cannot be represented exactly. Strict: throws UnsupportedSchemaError. Non-strict: records a
 * OVER_APPROXIMATED warning; the caller then over-approximates (accepts more, never less).
 */
export function refuse(
  ctx: NormalizeContext,
  keyword: string,
  path: string,
  why: string,
  code: ToolgramErrorCode = "UNSUPPORTED_KEYWORD",
): void {
  if (ctx.probing > 0) throw new ProbeAbort(why);
  const fix = ctx.opts.strict
    ? " Rewrite the schema without it, or compile with strict: false to accept a superset."
    : "";
  if (ctx.opts.strict) throw new UnsupportedSchemaError(code, `${keyword}: ${why}.${fix}`, path);
  ctx.relaxations++;
  ctx.warnings.push({
    code: "OVER_APPROXIMATED",
    message: `${keyword}: ${why}; accepting a superset`,
    schemaPath: path,
  });
}

export function warn(ctx: NormalizeContext, code: string, path: string, message: string): void {
  if (ctx.probing > 0) return;
  ctx.warnings.push({ code, message, schemaPath: path });
}
