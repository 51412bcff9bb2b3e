/** Appends one reference token to a JSON Pointer, escaping `~` and `/` as RFC 6901 says. */
export function pointerChild(base: string, token: string | number): string {
  const t = String(token);
  // most keys need no escape: a path is built for every value read, errors or not
  if (!t.includes("~") && !t.includes("/")) return `${base}/${t}`;
  return `${base}/${t.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}
