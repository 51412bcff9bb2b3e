/** JSON Pointer (RFC 6901): building, parsing and resolving. */

function escapeToken(t: string): string {
  // most keys need no escape: a path is built for every value read, errors or not
  if (!t.includes("~") && !t.includes("/")) return t;
  return t.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** `base` with the reference tokens appended, each escaped (`~` → `~0`, `/` → `~1`). */
export function childPath(base: string, ...tokens: (string | number)[]): string {
  let p = base;
  for (const t of tokens) p += `/${escapeToken(String(t))}`;
  return p;
}

/** Tokens of a pointer ("" → []); throws on a malformed pointer. */
export function parsePointer(p: string): string[] {
  if (p === "") return [];
  if (!p.startsWith("/")) throw new Error(`not a JSON Pointer: ${p}`);
  return p
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** The value at `pointer` inside `doc`, or undefined. */
export function resolvePointer(doc: unknown, tokens: string[]): unknown {
  let cur: unknown = doc;
  for (const t of tokens) {
    if (Array.isArray(cur)) {
      if (!/^(0|[1-9][0-9]*)$/.test(t)) return undefined;
      cur = cur[Number(t)];
    } else if (typeof cur === "object" && cur !== null && Object.hasOwn(cur, t)) {
      cur = (cur as Record<string, unknown>)[t];
    } else return undefined;
  }
  return cur;
}
