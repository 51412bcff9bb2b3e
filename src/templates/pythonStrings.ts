/**
 * Python's text conversions of @huggingface/jinja's runtime values, for the Jinja2 features chat templates use that the
 * library lacks: `str()` / `repr()` of a value and printf-style `%` formatting (Jinja2's `format` filter and the `%`
 * operator on a string).
 */

/** The runtime values @huggingface/jinja passes around (its classes are not exported; `value` is the JS value). */
export interface PyValue {
  type: string;
  value: unknown;
}

/** Python's `str(x)`: None, True and False as Python writes them; an undefined value as Jinja2's Undefined ("" ). */
export function pyStr(v: PyValue): string {
  switch (v.type) {
    case "StringValue":
      return v.value as string;
    case "UndefinedValue":
      return "";
    default:
      return pyRepr(v);
  }
}

/** Python's `repr(x)` of a runtime value: strings quoted as Python quotes them, lists, tuples and dicts recursively. */
export function pyRepr(v: PyValue): string {
  switch (v.type) {
    case "StringValue":
      return quote(v.value as string);
    case "IntegerValue":
      return String(v.value);
    case "FloatValue":
      return floatRepr(v.value as number);
    case "BooleanValue":
      return v.value ? "True" : "False";
    case "NullValue":
      return "None";
    case "UndefinedValue":
      return "";
    case "ArrayValue":
      return `[${(v.value as PyValue[]).map(pyRepr).join(", ")}]`;
    case "TupleValue": {
      const items = (v.value as PyValue[]).map(pyRepr);
      return items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`;
    }
    case "ObjectValue": {
      const entries = [...(v.value as Map<unknown, PyValue>).entries()];
      return `{${entries.map(([k, x]) => `${typeof k === "string" ? quote(k) : String(k)}: ${pyRepr(x)}`).join(", ")}}`;
    }
    default:
      throw new Error(`no Python text for a ${v.type}`);
  }
}

function floatRepr(x: number): string {
  if (Number.isNaN(x)) return "nan";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
  return Number.isInteger(x) && Math.abs(x) < 1e16 ? x.toFixed(1) : String(x);
}

/** Python's string repr: single quotes unless the text holds a single quote and no double quote. */
function quote(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const escaped = s.replace(
    /[\\\n\r\t]/g,
    (c) => ({ "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" })[c] as string,
  );
  return q + (q === "'" ? escaped.replaceAll("'", "\\'") : escaped) + q;
}

/** A conversion specifier: `%[(key)][flags][width][.precision]type`. */
const SPEC = /%(?:\(([^)]*)\))?([-+ #0]*)(\d+|\*)?(?:\.(\d+|\*))?([diouxXeEfFgGcrsa%])/g;

/**
 * Python's `format % args`: `args` are the positional values (a tuple's items, or the one value), or a mapping for
 * `%(key)s` fields. Errors are Python's: too few or too many values, a number conversion of a non-number.
 */
export function percentFormat(format: string, args: PyValue[] | Map<unknown, PyValue>): string {
  let next = 0;
  const positional = Array.isArray(args);
  const take = (key: string | undefined): PyValue => {
    if (key !== undefined) {
      if (positional) throw new Error("format requires a mapping");
      const v = args.get(key);
      if (v === undefined) throw new Error(`KeyError: ${quote(key)}`);
      return v;
    }
    if (!positional) throw new Error("format requires a mapping, not positional fields");
    if (next >= args.length) throw new Error("not enough arguments for format string");
    return args[next++];
  };
  const text = format.replace(
    SPEC,
    (_m, key: string | undefined, flags: string, width?: string, precision?: string) => {
      const type = _m.at(-1) as string;
      if (type === "%") return "%";
      const w = width === "*" ? Number(take(undefined).value) : width === undefined ? 0 : Number(width);
      const p =
        precision === "*" ? Number(take(undefined).value) : precision === undefined ? undefined : Number(precision);
      return convert(take(key), type, flags, w, p);
    },
  );
  if (positional && next < args.length) throw new Error("not all arguments converted during string formatting");
  return text;
}

function convert(v: PyValue, type: string, flags: string, width: number, precision: number | undefined): string {
  const left = flags.includes("-");
  const pad = (body: string, numeric: boolean): string => {
    if (body.length >= width) return body;
    if (left) return body.padEnd(width);
    if (numeric && flags.includes("0")) {
      const sign = /^[-+ ]/.test(body) ? body[0] : "";
      return sign + body.slice(sign.length).padStart(width - sign.length, "0");
    }
    return body.padStart(width);
  };
  if (type === "s" || type === "r" || type === "a") {
    const s = type === "s" ? pyStr(v) : pyRepr(v);
    return pad(precision === undefined ? s : s.slice(0, precision), false);
  }
  if (type === "c") {
    const c = v.type === "StringValue" ? (v.value as string) : String.fromCodePoint(number(v, type));
    return pad(c, false);
  }
  const x = number(v, type);
  const sign = (body: string): string =>
    x < 0 || Object.is(x, -0) ? `-${body}` : flags.includes("+") ? `+${body}` : flags.includes(" ") ? ` ${body}` : body;
  const a = Math.abs(x);
  switch (type) {
    case "d":
    case "i":
    case "u":
      return pad(sign(String(Math.trunc(a))), true);
    case "x":
    case "X":
    case "o": {
      const digits = Math.trunc(a).toString(type === "o" ? 8 : 16);
      const prefix = flags.includes("#") ? (type === "o" ? "0o" : "0x") : "";
      const body = prefix + digits;
      return pad(sign(type === "X" ? body.toUpperCase() : body), true);
    }
    case "f":
    case "F":
      return pad(sign(a.toFixed(precision ?? 6)), true);
    case "e":
    case "E": {
      const body = exponent(a.toExponential(precision ?? 6));
      return pad(sign(type === "E" ? body.toUpperCase() : body), true);
    }
    default: {
      // %g: Python's shortest of %e and %f at the given significant digits, trailing zeros dropped
      const digits = precision === 0 ? 1 : (precision ?? 6);
      const e = a === 0 ? 0 : Math.floor(Math.log10(a));
      const body =
        e < -4 || e >= digits
          ? exponent(a.toExponential(digits - 1)).replace(/\.?0+e/, "e")
          : a
              .toFixed(Math.max(0, digits - 1 - e))
              .replace(/(\.\d*?)0+$/, "$1")
              .replace(/\.$/, "");
      return pad(sign(type === "G" ? body.toUpperCase() : body), true);
    }
  }
}

/** JavaScript's `1.5e+0` as Python's `1.5e+00` (at least two exponent digits). */
function exponent(s: string): string {
  return s.replace(/e([-+])(\d)$/, "e$10$2");
}

function number(v: PyValue, type: string): number {
  if (v.type === "IntegerValue" || v.type === "FloatValue") return v.value as number;
  if (v.type === "BooleanValue") return v.value ? 1 : 0;
  throw new Error(`%${type} format: a real number is required, not ${v.type}`);
}
