/**
 * Sets an own enumerable property. Plain assignment `o[k] = v` with k = "__proto__" would replace the prototype
 * instead, silently dropping a schema's property named "__proto__"; keys taken from schemas must go through here.
 */
export function setOwn<T>(o: Record<string, T>, key: string, value: T): void {
  // only "__proto__" is an accessor on Object.prototype: any other key is created (or overwritten) as an own,
  // writable, enumerable, configurable property by plain assignment, several times faster than defineProperty
  if (key === "__proto__")
    Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
  else o[key] = value;
}
