/** Appends one reference token to a JSON Pointer, escaping `~` and `/` as RFC 6901 says. */
export function pointerChild(base: string, token: string | number): string {
  return base + "/" + String(token).replace(/~/g, "~0").replace(/\//g, "~1");
}
