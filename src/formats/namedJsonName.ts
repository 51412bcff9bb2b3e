import type { FormatDescription } from "./FormatDescription.js";

/** A name is written raw: it must not hold what ends it (the separator, a marker, whitespace). */
export function checkName(name: string, d: FormatDescription): void {
  if (d.unit.kind !== "named-json") throw new Error(`internal: ${d.name} has no named-JSON units`);
  const u = d.unit;
  if (
    name === "" ||
    /[\s{]/.test(name) ||
    (u.nameClose !== "" && name.includes(u.nameClose)) ||
    (d.close !== null && name.includes(d.close))
  ) {
    throw new TypeError(
      `tool name ${JSON.stringify(name)} cannot be written raw in format ${d.name} (no whitespace, "{" or markers)`,
    );
  }
  // a turn of messages (Functionary v3.2): the name follows the message's `open`, which must stay its only one there,
  // and the text recipient's message is no call
  if (
    d.messages !== undefined &&
    d.open !== null &&
    ((d.open + name).indexOf(d.open, 1) >= 0 || name + u.nameClose === d.messages.text)
  ) {
    throw new TypeError(
      `tool name ${JSON.stringify(name)} cannot be written in format ${d.name} (it would read as ${JSON.stringify(d.open)} or as the text's recipient)`,
    );
  }
}
