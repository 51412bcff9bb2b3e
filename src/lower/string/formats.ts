import { UnsupportedSchemaError } from "../../errors.js";
import { ALL_SCALARS, normalizeRanges } from "../../grammar/ranges.js";
import { rChars, rRep, rSeq, type RNode } from "../../regex/RegexNode.js";
import { parsePattern } from "./parsePattern.js";

/**
 * `format` support, mirroring ajv-formats in "full" mode (its `fullFormats`): each supported name maps to the
 * language of the whole string (no anchors), built from ajv-formats' own regular expressions (their `i` flag is
 * ASCII-only folding, as in ajv's non-unicode RegExp) or, where ajv-formats runs code, from an equivalent
 * regular expression.
 *
 * Known narrowing (never widening): ajv-formats' `time` accepts a leap second (`:60`) at any hour/minute whose UTC
 * equivalent is 23:59 (and, through its arithmetic, even hours 24+ / minutes 60+ with offsets). Only the UTC leap
 * second 23:59:60 with a zero offset (`Z`, `+00`, `+00:00`, `+0000`, `-00…`) is accepted here: the exact set would
 * couple the hour and minute with the offset and cost thousands of grammar nodes per use.
 */
export const STRING_FORMATS: readonly string[] = Object.freeze([
  "date", "time", "date-time", "iso-time", "iso-date-time", "duration", "uri", "uri-reference", "uri-template",
  "email", "hostname", "ipv4", "ipv6", "uuid", "json-pointer", "json-pointer-uri-fragment", "relative-json-pointer",
  "byte", "password", "binary", "int32", "int64", "float", "double",
]);

/** Formats that constrain numbers only, or nothing: a string always satisfies them (as in ajv). */
const NO_CONSTRAINT = new Set(["password", "binary", "int32", "int64", "float", "double"]);

const DUR_T = String.raw`T(?:\d+H(?:\d+M)?(?:\d+S)?|\d+M(?:\d+S)?|\d+S)`;
const DURATION = String.raw`P(?:\d+Y(?:\d+M)?(?:\d+D)?(?:${DUR_T})?|\d+M(?:\d+D)?(?:${DUR_T})?|\d+D(?:${DUR_T})?|${DUR_T}|\d+W)`;

/** Regular expressions copied from ajv-formats 3 (`fullFormats`), minus the `^`/`$` anchors, with their flags. */
const AJV_REGEX: Record<string, [string, boolean]> = {
  "uri-reference": [String.raw`(?:[a-z][a-z0-9+\-.]*:)?(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'"()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'"()*+,;=:@]|%[0-9a-f]{2})*)*)?(?:\?(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'"()*+,;=:@/?]|%[0-9a-f]{2})*)?`, true],
  "uri-template": [String.raw`(?:(?:[^\x00-\x20"'<>%\\^` + "`" + String.raw`{|}]|%[0-9a-f]{2})|\{[+#./;?&=,!@|]?(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?(?:,(?:[a-z0-9_]|%[0-9a-f]{2})+(?::[1-9][0-9]{0,3}|\*)?)*\})*`, true],
  email: [String.raw`[a-z0-9!#$%&'*+/=?^_` + "`" + String.raw`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_` + "`" + String.raw`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?`, true],
  // without its leading `(?=.{1,253}\.?$)` length lookahead, handled in formatRegex
  hostname: [String.raw`[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\.?`, true],
  ipv4: [String.raw`(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`, false],
  ipv6: [String.raw`((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))`, true],
  uuid: [String.raw`(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}`, true],
  "json-pointer": [String.raw`(?:\/(?:[^~/]|~0|~1)*)*`, false],
  "json-pointer-uri-fragment": [String.raw`#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|%[0-9a-f]{2}|~0|~1)*)*`, true],
  "relative-json-pointer": [String.raw`(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)`, false],
  // ajv-formats' `duration` with its two lookaheads unfolded: `(?!$)` after P = at least one component;
  // `T(?=\d)` = a component follows T
  duration: [DURATION, false],
};

const D = String.raw`\d`;
// full-date with the calendar check ajv-formats runs in code (month 1..12, day within the month, Feb 29 in leap
// years: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0), which depends only on the last four digits)
const LEAP_YEAR = String.raw`(?:${D}${D}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26]|00)00)`;
const DATE = String.raw`(?:${D}{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|${LEAP_YEAR}-02-29)`;
/**
 * ajv-formats compares `+"SS.fff"` with 60 (or 61) as a double: a fraction rounds the seconds up to the next integer
 * from 1 - 2^-48 on (ties to even go up). FRACTION_BELOW matches the digit strings whose value is below that.
 */
const THRESHOLD = "999999999999996447286321199499070644378662109375"; // 1 - 2^-48, exactly
function fractionBelowThreshold(): string {
  let s = "";
  for (let i = THRESHOLD.length - 1; i >= 0; i--) {
    const d = +THRESHOLD[i];
    const lower = d > 0 ? `[0-${d - 1}]\\d*` : "";
    const cont = i === THRESHOLD.length - 1 ? "" : `${d}(?:${s})?`;
    s = [lower, cont].filter(Boolean).join("|");
  }
  return s;
}
const FRACTION_BELOW = fractionBelowThreshold();
const TZ = String.raw`(?:z|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)`;
const TZ_ZERO = String.raw`(?:z|[+-]00(?::?00)?)`;
function timeRegex(tzRequired: boolean): string {
  const opt = tzRequired ? "" : "?";
  // ordinary times: SS <= 58 with any fraction, 59 with a fraction below the rounding threshold
  const ordinary = String.raw`(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5][0-8]|[0-4]9)(?:\.\d+)?${TZ}${opt}|(?:[01]\d|2[0-3]):[0-5]\d:59(?:\.(?:${FRACTION_BELOW}))?${TZ}${opt}`;
  // the UTC leap second (see STRING_FORMATS), and 23:59:59.999… that rounds to 60 at UTC 23:59
  const leap = String.raw`23:59:(?:[0-5]\d(?:\.\d+)?|60(?:\.(?:${FRACTION_BELOW}))?)${TZ_ZERO}${opt}`;
  return `(?:${ordinary}|${leap})`;
}

const cache = new Map<string, RNode>();

function fromSource(name: string, source: string, ignoreCase: boolean): RNode {
  let n = cache.get(name);
  if (!n) {
    n = parsePattern(source, "", { asciiIgnoreCase: ignoreCase });
    cache.set(name, n);
  }
  return n;
}

const LINE_TERMINATORS = normalizeRanges([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]);
const ANY_STRING: RNode = rRep(rChars(ALL_SCALARS), 0, null);

/**
 * The whole-string language of `format`, or `null` when the format does not constrain strings. `maxLength` lets
 * `hostname`'s total-length rule be implied. Throws UNSUPPORTED_FORMAT for what is not supported.
 */
export function formatRegex(name: string, path: string, maxLength: number | undefined): RNode | null {
  if (NO_CONSTRAINT.has(name)) return null;
  const pair = AJV_REGEX[name];
  if (name === "hostname") {
    // ajv-formats' `(?=.{1,253}\.?$)`: at most 253 characters, or 254 ending with a dot. A grammar would have to
    // count across labels; a maxLength <= 253 implies it.
    if (maxLength === undefined || maxLength > 253) {
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_FORMAT",
        `format "hostname" limits the total length to 253 characters, which a grammar can only enforce with a length bound: add "maxLength": 253 (or less) next to it`,
        path,
      );
    }
  }
  if (pair) return fromSource(name, pair[0], pair[1]);
  switch (name) {
    case "date":
      return fromSource(name, DATE, false);
    case "time":
      return fromSource(name, timeRegex(true), true);
    case "iso-time":
      return fromSource(name, timeRegex(false), true);
    case "date-time":
      // ajv splits on /t|\s/i and wants exactly two parts: a date, one separator, a time
      return fromSource(name, `${DATE}[t\\s]${timeRegex(true)}`, true);
    case "iso-date-time":
      return fromSource(name, `${DATE}[t\\s]${timeRegex(false)}`, true);
    case "uri": {
      // ajv-formats also requires a "/" or ":", which the mandatory scheme already provides
      return fromSource(name, URI_SOURCE, true);
    }
    case "byte": {
      // ajv-formats tests /^…$/gm: with the `m` flag it suffices that one line (text between line terminators,
      // possibly empty) is base64
      const b64 = fromSource(name, String.raw`(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?`, false);
      const lt = rChars(LINE_TERMINATORS);
      return rSeq(rRep(rSeq(ANY_STRING, lt), 0, 1), b64, rRep(rSeq(lt, ANY_STRING), 0, 1));
    }
    default:
      throw new UnsupportedSchemaError(
        "UNSUPPORTED_FORMAT",
        `format "${name}" is not supported for strings (supported: ${STRING_FORMATS.join(", ")}); remove it, or compile with strict: false to ignore it`,
        path,
      );
  }
}

const URI_SOURCE = String.raw`(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?`;
