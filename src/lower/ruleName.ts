/**
 * Deterministic GBNF-safe rule names (/^[a-z][a-z0-9-]*$/) from schema paths: the structural keywords of the path
 * are dropped and the rest is lowercased, so `/properties/city` under prefix `get-weather` is `get-weather-city`.
 */
const STRUCTURAL = new Set(["properties", "$defs", "definitions", "patternproperties", "allof", "anyof", "oneof"]);
// a Map, not an object literal: a key named `constructor` or `toString` must not find Object.prototype's members
const RENAMED = new Map([
  ["items", "item"],
  ["prefixitems", "item"],
  ["additionalproperties", "additional"],
]);

/** A name-safe slug of one text: lowercase ASCII letters and digits joined by single dashes. */
export function slug(text: string): string {
  // every rule name slugs the tool's prefix and the path's keys again: the same few texts, thousands of times
  let s = slugs.get(text);
  if (s === undefined) {
    if (slugs.size >= 8192) slugs.clear();
    slugs.set(
      text,
      (s = text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")),
    );
  }
  return s;
}

const slugs = new Map<string, string>();

/** The base rule name of a schema path (without collision handling). */
export function ruleNameFromPath(prefix: string, path: string, suffix = ""): string {
  const parts = [slug(prefix)];
  for (const raw of path.split("/").slice(1)) {
    const seg = raw.includes("~") ? raw.replace(/~1/g, "/").replace(/~0/g, "~") : raw;
    const low = seg.toLowerCase();
    if (STRUCTURAL.has(low)) continue;
    const s = RENAMED.get(low) ?? slug(seg);
    if (s) parts.push(s);
  }
  if (suffix) parts.push(slug(suffix));
  let name = parts.filter((p) => p.length > 0).join("-");
  if (!/^[a-z]/.test(name)) name = `r-${name}`;
  return name.replace(/-+$/, "") || "r";
}

/** Per name set, the next suffix to try per base: thousands of rules of one base stay linear, not quadratic. */
const nextSuffix = new WeakMap<object, Map<string, number>>();

/**
 * `base`, or `base-2`, `base-3`, ... : the first that `taken` does not hold (name sets only grow while a grammar is
 * built, so the search for a base resumes where it stopped).
 */
export function uniqueRuleName(taken: { has(name: string): boolean }, base: string): string {
  if (!taken.has(base)) return base;
  let next = nextSuffix.get(taken);
  if (!next) nextSuffix.set(taken, (next = new Map()));
  for (let i = next.get(base) ?? 2; ; i++) {
    const name = `${base}-${i}`;
    if (!taken.has(name)) {
      next.set(base, i + 1);
      return name;
    }
  }
}
