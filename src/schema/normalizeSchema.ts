import type { Diagnostic } from "../diagnostic.js";
import type { JsonValue } from "../json.js";
import type { ResolvedSchemaOptions } from "../options.js";
import { InvalidSchemaError, LimitExceededError, UnsatisfiableSchemaError, UnsupportedSchemaError } from "../errors.js";
import type { NormalizeContext } from "./NormalizeContext.js";
import { refuse, warn } from "./NormalizeContext.js";
import type { SchemaIR, SchemaNode } from "./SchemaNode.js";
import { normalizeDependentSchema, normalizeIf, normalizeNot, normalizeOneOf } from "./applicators.js";
import { buildLocal } from "./buildLocal.js";
import { deepEqual, uniqueValues } from "./deepEqual.js";
import { finalize } from "./finalize.js";
import { buildPendingDefs } from "./derivedDefs.js";
import { intersect } from "./intersect.js";
import { ANNOTATIONS, IMPLEMENTED, detectDraft, isExtensionKeyword, likelyTypoOf } from "./keywords.js";
import { anyNode, makeUnion, never } from "./nodes.js";
import { childPath, parsePointer, resolvePointer } from "../util/jsonPointer.js";
import { buildRefIndex, resolveRef, type RefIndex } from "./refIndex.js";
import { Deadline } from "../Deadline.js";
import { KeywordReader } from "./validateKeywords.js";

/** $id/$anchor indexes built, for tests that count the work (a schema without `$ref` needs none). */
export const refIndexes = { built: 0 };

/**
 * Normalizes a JSON Schema (draft 2020-12; draft-7 forms and draft-4 boolean exclusive bounds accepted) into the
 * schema IR, which describes exactly the values ajv (with ajv-formats) accepts. What the IR cannot express exactly is
 * refused with UnsupportedSchemaError in strict mode, or over-approximated (a superset) with an OVER_APPROXIMATED
 * warning otherwise. Throws InvalidSchemaError for malformed schemas, LimitExceededError for the named caps, and
 * UnsatisfiableSchemaError when no value at all is valid.
 *
 * @param basePath JSON Pointer of `schema` inside the user's input, prefixed to every node's `path` and error.
 * @param deadline The compile's time budget (LIMIT_COMPILE_TIME is thrown from inside the normalization).
 */
export function normalizeSchema(
  schema: unknown,
  opts: ResolvedSchemaOptions,
  warnings: Diagnostic[],
  basePath = "",
  deadline: Deadline = Deadline.none(),
): SchemaIR {
  const draft = detectDraft(schema);
  // the $id/$anchor index is built by the first $ref (most tool schemas have none); it never throws and the schema
  // is not changed while normalizing, so building it later gives the same index
  let refs: RefIndex | undefined;
  const ctx: NormalizeContext = {
    opts,
    warnings,
    basePath,
    root: schema,
    draft,
    get refs(): RefIndex {
      if (refs === undefined) {
        refs = buildRefIndex(schema, draft);
        refIndexes.built++;
      }
      return refs;
    },
    defs: new Map(),
    inProgress: new Set(),
    recursive: new Set(),
    memo: new Map(),
    openByDefault: new WeakSet(),
    depth: 0,
    refDepth: 0,
    probing: 0,
    steps: 0,
    relaxations: 0,
    inexact: new Set(),
    derived: new Map(),
    pendingDefs: [],
    deadline,
    sub: (s, p) => normalizeAt(ctx, s, p),
  };
  const raw = normalizeAt(ctx, schema, "");
  buildPendingDefs(ctx);
  ctx.deadline.check("normalizing the schema", basePath);
  const root = finalize(ctx, raw);
  if (root.kind === "never") {
    throw new UnsatisfiableSchemaError(
      "UNSATISFIABLE",
      `no JSON value satisfies this schema: ${root.reason}. Relax the conflicting constraints`,
      basePath,
    );
  }
  return { root, defs: ctx.defs };
}

/** Normalizes the schema at `ptr`; recursion through `$ref` (or an ancestor) yields a `ref` node and a definition. */
function normalizeAt(ctx: NormalizeContext, s: unknown, ptr: string): SchemaNode {
  const path = ctx.basePath + ptr;
  ctx.deadline.tick("normalizing the schema", path);
  const memo = ctx.memo.get(ptr);
  if (memo) {
    if (ctx.inexact.has(ptr)) ctx.relaxations++;
    return memo;
  }
  if (ctx.inProgress.has(ptr)) {
    ctx.recursive.add(ptr);
    return { kind: "ref", path, target: ptr };
  }
  if (++ctx.depth > ctx.opts.limits.maxNesting) {
    throw new LimitExceededError(
      "LIMIT_NESTING",
      `schema nesting exceeds limits.maxNesting = ${ctx.opts.limits.maxNesting}; flatten the schema or raise the limit`,
      path,
    );
  }
  ctx.inProgress.add(ptr);
  const relaxedBefore = ctx.relaxations;
  let node: SchemaNode;
  try {
    node = normalizeValue(ctx, s, ptr);
  } finally {
    ctx.inProgress.delete(ptr);
    ctx.depth--;
  }
  if (ctx.recursive.has(ptr)) {
    ctx.defs.set(ptr, node);
    node = { kind: "ref", path, target: ptr };
  }
  if (ctx.relaxations > relaxedBefore) ctx.inexact.add(ptr);
  ctx.memo.set(ptr, node);
  return node;
}

function normalizeValue(ctx: NormalizeContext, s: unknown, ptr: string): SchemaNode {
  const path = ctx.basePath + ptr;
  if (s === true) return anyNode(path);
  if (s === false) return never(path, "the schema is `false`");
  if (typeof s !== "object" || s === null || Array.isArray(s)) {
    throw new InvalidSchemaError(
      "INVALID_SCHEMA",
      `a schema must be an object or a boolean, got ${JSON.stringify(s)?.slice(0, 80)}`,
      path,
    );
  }
  const o = s as Record<string, unknown>;
  checkKeywords(ctx, o, path);
  const r = new KeywordReader(o, path);
  const parts: SchemaNode[] = [buildLocal(ctx, o, ptr)];

  if (r.has("$ref")) parts.push(normalizeRef(ctx, r.str("$ref")!, ptr));
  for (const k of ["$dynamicRef", "$recursiveRef"]) {
    if (r.has(k)) {
      refuse(ctx, k, childPath(path, k), "dynamic references are not supported; use $ref");
    }
  }
  const allOf = r.schemaArray("allOf");
  if (allOf) allOf.forEach((b, i) => parts.push(normalizeAt(ctx, b, childPath(ptr, "allOf", i))));
  const anyOf = r.schemaArray("anyOf");
  if (anyOf)
    parts.push(
      makeUnion(
        path,
        anyOf.map((b, i) => normalizeAt(ctx, b, childPath(ptr, "anyOf", i))),
      ),
    );
  const oneOf = r.schemaArray("oneOf");
  if (oneOf) {
    const before = ctx.relaxations;
    const branches = oneOf.map((b, i) => normalizeAt(ctx, b, childPath(ptr, "oneOf", i)));
    parts.push(normalizeOneOf(ctx, branches, childPath(path, "oneOf"), ctx.relaxations === before));
  }
  if (r.has("not")) {
    const before = ctx.relaxations;
    const inner = normalizeAt(ctx, r.schema("not"), childPath(ptr, "not"));
    parts.push(normalizeNot(ctx, inner, path, ctx.relaxations === before));
  }
  if (r.has("if")) {
    const before = ctx.relaxations;
    const cond = normalizeAt(ctx, r.schema("if"), childPath(ptr, "if"));
    const condExact = ctx.relaxations === before;
    const then = r.has("then") ? normalizeAt(ctx, r.schema("then"), childPath(ptr, "then")) : anyNode(path);
    const els = r.has("else") ? normalizeAt(ctx, r.schema("else"), childPath(ptr, "else")) : anyNode(path);
    parts.push(normalizeIf(ctx, cond, then, els, path, condExact));
  } else {
    r.schema("then");
    r.schema("else");
  }
  const depSchemas: [string, unknown, string][] = Object.entries(r.schemaMap("dependentSchemas") ?? {}).map(
    ([k, v]) => [k, v, childPath(ptr, "dependentSchemas", k)],
  );
  if (o.dependencies && typeof o.dependencies === "object") {
    for (const [k, v] of Object.entries(o.dependencies as Record<string, unknown>)) {
      if (!Array.isArray(v)) depSchemas.push([k, v, childPath(ptr, "dependencies", k)]);
    }
  }
  for (const [k, v, p] of depSchemas) parts.push(normalizeDependentSchema(ctx, k, normalizeAt(ctx, v, p), path));

  const values = readEnum(ctx, r);
  if (values) parts.push(values.length ? { kind: "enum", path, values } : never(path, "the enum is empty"));

  let node = parts[0];
  for (let i = 1; i < parts.length; i++) node = intersect(ctx, node, parts[i], path);
  return node;
}

function readEnum(ctx: NormalizeContext, r: KeywordReader): JsonValue[] | undefined {
  let values: JsonValue[] | undefined;
  if (r.has("enum")) {
    const e = r.s.enum;
    if (!Array.isArray(e)) r.fail("enum", "an array");
    if (e.length > ctx.opts.limits.maxEnumSize) {
      throw new LimitExceededError(
        "LIMIT_ENUM_SIZE",
        `enum has ${e.length} values, above limits.maxEnumSize = ${ctx.opts.limits.maxEnumSize}`,
        childPath(r.path, "enum"),
      );
    }
    values = uniqueValues(e as JsonValue[]);
  }
  if (Object.hasOwn(r.s, "const")) {
    const c = r.s.const as JsonValue;
    values = values ? values.filter((v) => deepEqual(v, c)) : [c];
  }
  return values;
}

function normalizeRef(ctx: NormalizeContext, ref: string, ptr: string): SchemaNode {
  const path = childPath(ctx.basePath + ptr, "$ref");
  const target = resolveRef(ctx.refs, ctx.root, ref, ptr);
  if (target === undefined) {
    throw new InvalidSchemaError(
      "INVALID_REF",
      `cannot resolve $ref ${JSON.stringify(ref)}: only references into this document (JSON Pointers, $anchor, $id) are supported; inline the referenced schema`,
      path,
    );
  }
  if (++ctx.refDepth > ctx.opts.limits.maxRefDepth) {
    throw new LimitExceededError(
      "LIMIT_REF_DEPTH",
      `$ref chain deeper than limits.maxRefDepth = ${ctx.opts.limits.maxRefDepth}`,
      path,
    );
  }
  try {
    return normalizeAt(ctx, resolvePointer(ctx.root, parsePointer(target)), target);
  } finally {
    ctx.refDepth--;
  }
}

/**
 * Unknown keywords, by `unknownKeywords`: "ignore" reads every one as an annotation; "error" refuses every one;
 * "error-on-typos" (the default) refuses only likely typos of implemented keywords (`requried`, `maxLenght`) and reads
 * the others (vendor keywords such as `markdownDescription`, typos of annotations) as annotations. A refusal under
 * strict: false is a warning instead (the keyword is ignored: a superset).
 */
function checkKeywords(ctx: NormalizeContext, o: Record<string, unknown>, path: string): void {
  const unknown = Object.keys(o)
    .filter((k) => !IMPLEMENTED.has(k) && !ANNOTATIONS.has(k) && !isExtensionKeyword(k))
    .sort();
  if (!unknown.length) return;
  const mode = ctx.opts.unknownKeywords;
  const typos = new Map(unknown.map((k) => [k, likelyTypoOf(k)] as const));
  const refused =
    mode === "ignore" ? [] : mode === "error" ? unknown : unknown.filter((k) => typos.get(k) !== undefined);
  const annotations = unknown.filter((k) => !refused.includes(k));
  if (annotations.length) {
    const where = annotations.map((k) => childPath(path, k)).join(", ");
    const s = annotations.length > 1 ? "s" : "";
    warn(
      ctx,
      "IGNORED_KEYWORD",
      path,
      `unknown keyword${s} ${annotations.join(", ")} read as annotation${s} (at ${where})`,
    );
  }
  if (!refused.length) return;
  const where = refused.map((k) => childPath(path, k)).join(", ");
  const s = refused.length > 1 ? "s" : "";
  const them = refused.length > 1 ? "them" : "it";
  const hints = refused
    .filter((k) => typos.get(k) !== undefined)
    .map((k) => `${JSON.stringify(typos.get(k))} for ${JSON.stringify(k)}`);
  const didYouMean = hints.length ? `, did you mean ${hints.join(", ")}?` : ".";
  if (ctx.opts.strict) {
    const fix = hints.length ? "Fix the spelling" : `Remove ${them}`;
    throw new UnsupportedSchemaError(
      "UNKNOWN_KEYWORD",
      `unknown keyword${s} ${refused.join(", ")} (at ${where})${didYouMean} ${fix}, prefix ${them} with x- or _, or compile with strict: false to ignore ${them}`,
      path,
    );
  }
  warn(ctx, "UNKNOWN_KEYWORD", path, `ignored unknown keyword${s} ${refused.join(", ")} (at ${where})${didYouMean}`);
}
