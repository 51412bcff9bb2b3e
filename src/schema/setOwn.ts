/**
 * Sets an own enumerable property. Plain assignment `o[k] = v` with k = "__proto__" would replace the prototype
 * instead, silently dropping a schema's property named "__proto__"; keys taken from schemas must go through here.
 */
export function setOwn<T>(o: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}
