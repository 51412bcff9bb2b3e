import { type Draft, SUBSCHEMA_ARRAY_KEYWORDS, SUBSCHEMA_KEYWORDS, SUBSCHEMA_MAP_KEYWORDS } from "./keywords.js";
import { childPath, parsePointer, resolvePointer } from "../util/jsonPointer.js";

/** Where every `$id` and `$anchor` of one document points, and the base URI in force at each schema location. */
export interface RefIndex {
  /** Absolute URI (no fragment, or with `#anchor`) → JSON Pointer inside the document. */
  targets: Map<string, string>;
  /** JSON Pointer of a schema object with a `$id` → the base URI it sets. */
  baseAt: Map<string, string>;
}

/** A stand-in base for documents without `$id`, so relative references resolve like URLs. */
const DEFAULT_BASE = "https://toolgram.invalid/schema.json";

function stripFragment(u: string): string {
  const i = u.indexOf("#");
  return i < 0 ? u : u.slice(0, i);
}

function safeResolve(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}

interface WalkEntry {
  v: unknown;
  parent: WalkEntry | undefined;
  token: string;
  base: string;
}

/** The pointer of a walk entry, built only when needed (building every pointer of a deep document is quadratic). */
function pointerOf(e: WalkEntry): string {
  const tokens: string[] = [];
  for (let x: WalkEntry | undefined = e; x?.parent; x = x.parent) tokens.push(x.token);
  return childPath("", ...tokens.reverse());
}

/**
 * Walks the document's schemas iteratively (deep documents must not overflow the stack). Only real subschema
 * positions are entered: a `$id` inside `enum`, an annotation or an unknown keyword is data, not an identifier. In
 * draft 7 the siblings of `$ref` are ignored, so a `$id` beside a `$ref` neither names the schema nor changes the
 * base URI the `$ref` resolves against.
 */
export function buildRefIndex(root: unknown, draft: Draft = "2020-12"): RefIndex {
  const targets = new Map<string, string>();
  const baseAt = new Map<string, string>();
  targets.set(DEFAULT_BASE, "");
  const stack: WalkEntry[] = [{ v: root, parent: undefined, token: "", base: DEFAULT_BASE }];
  const push = (v: unknown, parent: WalkEntry, token: string, base: string): void => {
    if (typeof v === "object" && v !== null && !Array.isArray(v)) stack.push({ v, parent, token, base });
  };
  while (stack.length) {
    const e = stack.pop()!;
    const o = e.v as Record<string, unknown>;
    let base = e.base;
    const refHidesId = draft === "draft-7" && typeof o.$ref === "string";
    const id = typeof o.$id === "string" && !refHidesId ? o.$id : undefined;
    if (id !== undefined) {
      const p = pointerOf(e);
      if (id.startsWith("#") && id.length > 1 && !id.startsWith("#/")) {
        targets.set(stripFragment(base) + id, p); // draft-7 plain-name fragment id
      } else {
        const abs = safeResolve(id, base);
        if (abs) {
          base = stripFragment(abs);
          if (!targets.has(base)) targets.set(base, p);
          baseAt.set(p, base);
        }
      }
    }
    for (const key of ["$anchor", "$dynamicAnchor"]) {
      const a = o[key];
      if (typeof a === "string") targets.set(`${stripFragment(base)}#${a}`, pointerOf(e));
    }
    for (const k of SUBSCHEMA_KEYWORDS) if (Object.hasOwn(o, k)) push(o[k], e, k, base);
    for (const k of SUBSCHEMA_ARRAY_KEYWORDS) {
      const list = Object.hasOwn(o, k) ? o[k] : undefined;
      if (!Array.isArray(list)) continue;
      const at: WalkEntry = { v: list, parent: e, token: k, base };
      list.forEach((x, i) => push(x, at, String(i), base));
    }
    for (const k of SUBSCHEMA_MAP_KEYWORDS) {
      const map = Object.hasOwn(o, k) ? o[k] : undefined;
      if (typeof map !== "object" || map === null || Array.isArray(map)) continue;
      const at: WalkEntry = { v: map, parent: e, token: k, base };
      for (const [name, x] of Object.entries(map)) push(x, at, name, base);
    }
  }
  return { targets, baseAt };
}

/** The base URI in force at `pointer`: that of the nearest enclosing schema with a `$id`. */
function baseFor(index: RefIndex, pointer: string): string {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf("/"))) {
    const b = index.baseAt.get(p);
    if (b !== undefined) return b;
    if (p === "") return DEFAULT_BASE;
  }
}

/** The JSON Pointer a `$ref` at `fromPointer` designates, or undefined when it is not inside this document. */
export function resolveRef(index: RefIndex, root: unknown, ref: string, fromPointer: string): string | undefined {
  const base = baseFor(index, fromPointer);
  const abs = safeResolve(ref, base);
  if (abs === undefined) return undefined;
  const hashAt = abs.indexOf("#");
  const doc = hashAt < 0 ? abs : abs.slice(0, hashAt);
  let fragment = hashAt < 0 ? "" : abs.slice(hashAt + 1);
  try {
    fragment = decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
  const docPointer = index.targets.get(doc);
  if (docPointer === undefined) return undefined;
  let pointer: string;
  if (fragment === "" || fragment.startsWith("/")) {
    pointer = docPointer + fragment;
  } else {
    const anchored = index.targets.get(`${doc}#${fragment}`);
    if (anchored === undefined) return undefined;
    pointer = anchored;
  }
  let tokens: string[];
  try {
    tokens = parsePointer(pointer);
  } catch {
    return undefined;
  }
  return resolvePointer(root, tokens) === undefined ? undefined : pointer;
}
