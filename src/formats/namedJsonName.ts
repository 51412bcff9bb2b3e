import type { FormatDescription } from "./FormatDescription.js";

/** A name is written raw: it must not hold what ends it (the separator, a marker, whitespace). */
export function checkName(name: string, d: FormatDescription): void {
  if (d.unit.kind !== "named-json") throw new Error(`internal: ${d.name} has no named-JSON units`);
  const u = d.unit;
  if (name === "" || /[\s{]/.test(name) || (u.nameClose !== "" && name.includes(u.nameClose)) || (d.close !== null && name.includes(d.close))) {
    throw new TypeError(`tool name ${JSON.stringify(name)} cannot be written raw in format ${d.name} (no whitespace, "{" or markers)`);
  }
}
