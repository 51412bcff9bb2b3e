/**
 * The language toolgram enforces for each string `format`: the strings valid under BOTH ajv-formats ("full" mode,
 * the referee) and the format's own standard grammar (RFC ABNF). Where ajv-formats is lenient, the source here is
 * narrower than its regular expression; it is never wider. Each source is a whole-string ECMAScript regex (no
 * anchors), read with ASCII-only case folding when `ignoreCase` is set (as ajv's non-unicode `i` flag does). The
 * lowering builds automata from these sources; the schema IR's `checkFormat` tests values with them (and ajv).
 *
 * Narrowings, by format (each checked by test/string/formatsRfc.test.ts against an RFC checker written from the ABNF):
 * - `uri`, `uri-reference` (RFC 3986): an authority only after `//`; no leading zeros in an IPv6 literal's IPv4 tail (ajv also reads `a:/[::1]` and `/host:1` with one
 *   slash as an authority); no `"` anywhere (ajv allows it in hosts, paths, queries, fragments); a relative
 *   reference's first segment has no `:` (`segment-nz-nc`: ajv accepts `://` and `a:b` without scheme rules).
 * - `hostname` (RFC 1123 §2.1, RFC 952): no trailing dot (ajv accepts the absolute form `a.b.`); no label with
 *   hyphens in its 3rd and 4th position (RFC 5890 §2.3.1, reserved LDH labels: ajv accepts `ab--c` and any `xn--`
 *   label, also invalid Punycode such as `xn--X`; a grammar cannot decode Punycode, so A-labels are left out too).
 * - `date-time`, `time` (RFC 3339 §5.6): the offset is `Z` or `±hh:mm` (ajv also accepts `+01` and `+0100`); the
 *   date/time separator is `T`, `t` or a space (RFC 3339's note; ajv accepts any `\s`: tabs, newlines, U+2028...).
 *   `iso-time` and `iso-date-time` (ajv's ISO 8601 variants, offset optional) get the same offset and separator rules.
 * - `duration` (RFC 3339 Appendix A): `dur-year = 1*DIGIT "Y" [dur-month]`, so a skipped unit is refused (`P1Y2D`,
 *   `PT1H2S` are not in the ABNF; ajv accepts them).
 * - `uuid` (RFC 4122 §3): the bare string form (ajv also accepts a `urn:uuid:` prefix, the URN, not the UUID).
 * - `uri-template` (RFC 6570 §2.1): literals are RFC 6570's (`ucschar`, `iprivate`): no DEL, no C1 controls, no
 *   non-characters (ajv accepts any character above 0x20 outside its short exclusion list).
 * - `byte` (RFC 4648 §4 base64): the whole string (ajv's `/…/m` accepts any string with one base64 line).
 * - `json-pointer-uri-fragment` (RFC 6901 §6): percent-escapes that decode to UTF-8, and no escaped `~` (ajv accepts
 *   `#/%aa` and `#/%7E2`, which decode to no JSON pointer).
 * Unchanged, already within their standard: `email` (ajv-formats' dot-atom local part and letter-digit-hyphen domain
 * labels are within RFC 5321's `Mailbox` with a `Dot-string` and RFC 5322's `addr-spec`), `date` (RFC 3339 full-date, with the calendar check ajv runs in code),
 * `ipv4` (RFC 2673 dotted-quad), `ipv6` (RFC 4291 §2.2 / RFC 3986 `IPv6address`), `json-pointer` (RFC 6901),
 * `relative-json-pointer`. `uri` keeps ajv-formats' non-empty hier-part (RFC 3986 also allows `a:`).
 *
 * Leap seconds: only the UTC leap second 23:59:60 with a zero offset (`Z`, `±00:00`) is accepted (ajv accepts a
 * leap second at any local time equivalent to 23:59 UTC; the exact set would couple hour, minute and offset).
 */

/** A format's language: a whole-string regex source and whether letters match either case (ASCII only). */
export interface FormatSource {
  readonly source: string;
  readonly ignoreCase: boolean;
}

// RFC 3986 pieces (case-insensitive: hex digits, scheme and host letters)
const PCT = String.raw`%[0-9a-f]{2}`;
const PCHAR = String.raw`(?:[a-z0-9\-._~!$&'()*+,;=:@]|${PCT})`;
const PCHAR_NO_COLON = String.raw`(?:[a-z0-9\-._~!$&'()*+,;=@]|${PCT})`;
const USERINFO = String.raw`(?:[a-z0-9\-._~!$&'()*+,;=:]|${PCT})*`;
const H16 = "[0-9a-f]{1,4}";
const DEC_OCTET = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`; // RFC 3986 dec-octet: no leading zero
// RFC 3986 IPv6address, as ajv-formats writes it but with RFC 3986's dec-octet in the IPv4 tail (ajv accepts
// `[::1:2:03.00.1.1]`)
const IPV6_IN_URI = String.raw`(?:(?:(?:${H16}:){6}|::(?:${H16}:){5}|(?:${H16})?::(?:${H16}:){4}|(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}|(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}|(?:(?:${H16}:){0,3}${H16})?::${H16}:|(?:(?:${H16}:){0,4}${H16})?::)(?:${H16}:${H16}|(?:${DEC_OCTET}\.){3}${DEC_OCTET})|(?:(?:${H16}:){0,5}${H16})?::${H16}|(?:(?:${H16}:){0,6}${H16})?::)`;
const IP_LITERAL = String.raw`\[(?:${IPV6_IN_URI}|v[0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]`;
// an IPv4address is also a reg-name (ajv lists both; one is enough)
const REG_NAME = String.raw`(?:[a-z0-9\-._~!$&'()*+,;=]|${PCT})*`;
const AUTHORITY = String.raw`(?:${USERINFO}@)?(?:${IP_LITERAL}|${REG_NAME})(?::\d*)?`;
const PATH_ABEMPTY = String.raw`(?:\/${PCHAR}*)*`;
const HIER_PART = String.raw`\/\/${AUTHORITY}${PATH_ABEMPTY}|\/(?:${PCHAR}+${PATH_ABEMPTY})?|${PCHAR}+${PATH_ABEMPTY}`;
const RELATIVE_PART = String.raw`\/\/${AUTHORITY}${PATH_ABEMPTY}|\/(?:${PCHAR}+${PATH_ABEMPTY})?|${PCHAR_NO_COLON}+${PATH_ABEMPTY}`;
const QUERY_FRAGMENT = String.raw`(?:\?(?:${PCHAR}|[\/?])*)?(?:#(?:${PCHAR}|[\/?])*)?`;
const SCHEME = String.raw`[a-z][a-z0-9+\-.]*`;
// ajv-formats' uri needs a non-empty hier-part (RFC 3986 also allows path-empty: `a:`)
const URI = String.raw`${SCHEME}:(?:${HIER_PART})${QUERY_FRAGMENT}`;
const URI_REFERENCE = String.raw`(?:${SCHEME}:(?:${HIER_PART})?|(?:${RELATIVE_PART})?)${QUERY_FRAGMENT}`;

// RFC 1123 labels: letters, digits, inner hyphens, at most 63 characters; no hyphens in both the 3rd and 4th
// position (RFC 5890 §2.3.1's reserved LDH labels: an `xn--` A-label is valid only if its Punycode decodes to a
// valid IDNA2008 U-label, which no grammar checks, and the other ones are not valid at all)
const LDH = "[a-z0-9-]";
const LABEL = String.raw`[a-z0-9](?:${LDH}{0,2}[a-z0-9]|${LDH}(?:[a-z0-9]${LDH}|-[a-z0-9])${LDH}{0,58}[a-z0-9])?`;
const HOSTNAME = String.raw`${LABEL}(?:\.${LABEL})*`;
const ATEXT = "[a-z0-9!#$%&'*+/=?^_`{|}~-]";
// ajv-formats' domain labels (unbounded: RFC 5321's Domain ABNF has no length; a 63 bound would multiply the
// automaton of an email with a maxLength by the label positions)
const EMAIL_LABEL = String.raw`[a-z0-9](?:[a-z0-9-]*[a-z0-9])?`;
const EMAIL = String.raw`${ATEXT}+(?:\.${ATEXT}+)*@(?:${EMAIL_LABEL}\.)+${EMAIL_LABEL}`;

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
// RFC 3339 time-offset: "Z" / ("+" / "-") time-hour ":" time-minute
const OFFSET = String.raw`(?:z|[+-](?:[01]\d|2[0-3]):[0-5]\d)`;
const OFFSET_ZERO = String.raw`(?:z|[+-]00:00)`;
function timeSource(offsetRequired: boolean): string {
  const opt = offsetRequired ? "" : "?";
  // ordinary times: SS <= 58 with any fraction, 59 with a fraction below the rounding threshold
  const ordinary = String.raw`(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5][0-8]|[0-4]9)(?:\.\d+)?${OFFSET}${opt}|(?:[01]\d|2[0-3]):[0-5]\d:59(?:\.(?:${FRACTION_BELOW}))?${OFFSET}${opt}`;
  // the UTC leap second, and 23:59:59.999… that ajv rounds to 60 at UTC 23:59
  const leap = String.raw`23:59:(?:[0-5]\d(?:\.\d+)?|60(?:\.(?:${FRACTION_BELOW}))?)${OFFSET_ZERO}${opt}`;
  return `(?:${ordinary}|${leap})`;
}
const DATE_TIME_SEPARATOR = "[t ]";

const DUR_T = String.raw`T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)`;
const DURATION = String.raw`P(?:\d+Y(?:\d+M(?:\d+D)?)?(?:${DUR_T})?|\d+M(?:\d+D)?(?:${DUR_T})?|\d+D(?:${DUR_T})?|${DUR_T}|\d+W)`;

const IPV4 = String.raw`(?:${DEC_OCTET}\.){3}${DEC_OCTET}`;
// ajv-formats' ipv6
const IPV6 = String.raw`((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))`;

// RFC 6570 literals: %x21 / %x23-24 / %x26 / %x28-3B / %x3D / %x3F-5B / %x5D / %x5F / %x61-7A / %x7E / ucschar /
// iprivate (pct-encoded separately)
const UCSCHAR_IPRIVATE = String.raw`\u00A0-\uD7FF\uE000-\uFDCF\uFDF0-\uFFEF\u{10000}-\u{1FFFD}\u{20000}-\u{2FFFD}\u{30000}-\u{3FFFD}\u{40000}-\u{4FFFD}\u{50000}-\u{5FFFD}\u{60000}-\u{6FFFD}\u{70000}-\u{7FFFD}\u{80000}-\u{8FFFD}\u{90000}-\u{9FFFD}\u{A0000}-\u{AFFFD}\u{B0000}-\u{BFFFD}\u{C0000}-\u{CFFFD}\u{D0000}-\u{DFFFD}\u{E1000}-\u{EFFFD}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}`;
const TEMPLATE_LITERAL = String.raw`[\x21\x23\x24\x26\x28-\x3B\x3D\x3F-\x5B\x5D\x5F\x61-\x7A\x7E${UCSCHAR_IPRIVATE}]`;
const VARSPEC = String.raw`(?:[a-z0-9_]|${PCT})+(?::[1-9][0-9]{0,3}|\*)?`;
const URI_TEMPLATE = String.raw`(?:${TEMPLATE_LITERAL}|${PCT}|\{[+#./;?&=,!@|]?${VARSPEC}(?:,${VARSPEC})*\})*`;

// RFC 6901 §6: a fragment is the pointer's UTF-8 bytes, percent-encoded: the escapes must decode to UTF-8 (RFC
// 3629 §4), and "~" is written as itself (a "%7E" would hide an escape such as "%7E2" from the "~0"/"~1" rule)
const CONT = "%[89ab][0-9a-f]";
const PCT_UTF8 = String.raw`(?:%[0-6][0-9a-f]|%7[0-9a-df]|%c[2-9a-f]${CONT}|%d[0-9a-f]${CONT}|%e0%[ab][0-9a-f]${CONT}|%e[1-9a-cef]${CONT}${CONT}|%ed%[89][0-9a-f]${CONT}|%f0%[9ab][0-9a-f]${CONT}${CONT}|%f[1-3]${CONT}${CONT}${CONT}|%f4%8[0-9a-f]${CONT}${CONT})`;

// ajv-formats' `url` (Diego Perini's web URL pattern, flags `iu`), written out with the folds the `iu` flags give:
// ASCII letters either case, and the long s (U+017F) that Unicode case folding maps to `s`; its host classes already
// hold every other BMP letter from U+00A1 on. No RFC defines `url`, so the referee's language is the enforced one.
const URL_HOST_CHAR = String.raw`[a-zA-Z0-9\u{00a1}-\u{ffff}]`;
export const URL_SOURCE = String.raw`(?:[hH][tT][tT][pP][sS\u017F]?|[fF][tT][pP]):\/\/(?:\S+(?::\S*)?@)?(?:(?!(?:10|127)(?:\.\d{1,3}){3})(?!(?:169\.254|192\.168)(?:\.\d{1,3}){2})(?!172\.(?:1[6-9]|2\d|3[0-1])(?:\.\d{1,3}){2})(?:[1-9]\d?|1\d\d|2[01]\d|22[0-3])(?:\.(?:1?\d{1,2}|2[0-4]\d|25[0-5])){2}(?:\.(?:[1-9]\d?|1\d\d|2[0-4]\d|25[0-4]))|(?:(?:${URL_HOST_CHAR}+-)*${URL_HOST_CHAR}+)(?:\.(?:${URL_HOST_CHAR}+-)*${URL_HOST_CHAR}+)*(?:\.(?:[a-zA-Z\u{00a1}-\u{ffff}]{2,})))(?::\d{2,5})?(?:\/[^\s]*)?`;

const SOURCES: Readonly<Record<string, FormatSource>> = {
  date: { source: DATE, ignoreCase: false },
  time: { source: timeSource(true), ignoreCase: true },
  "iso-time": { source: timeSource(false), ignoreCase: true },
  "date-time": { source: `${DATE}${DATE_TIME_SEPARATOR}${timeSource(true)}`, ignoreCase: true },
  "iso-date-time": { source: `${DATE}${DATE_TIME_SEPARATOR}${timeSource(false)}`, ignoreCase: true },
  duration: { source: DURATION, ignoreCase: false },
  uri: { source: URI, ignoreCase: true },
  "uri-reference": { source: URI_REFERENCE, ignoreCase: true },
  "uri-template": { source: URI_TEMPLATE, ignoreCase: true },
  url: { source: URL_SOURCE, ignoreCase: false },
  email: { source: EMAIL, ignoreCase: true },
  hostname: { source: HOSTNAME, ignoreCase: true },
  ipv4: { source: IPV4, ignoreCase: false },
  ipv6: { source: IPV6, ignoreCase: true },
  uuid: { source: String.raw`[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}`, ignoreCase: true },
  "json-pointer": { source: String.raw`(?:\/(?:[^~/]|~0|~1)*)*`, ignoreCase: false },
  "json-pointer-uri-fragment": {
    source: String.raw`#(?:\/(?:[a-z0-9_\-.!$&'()*+,;:=@]|${PCT_UTF8}|~0|~1)*)*`,
    ignoreCase: true,
  },
  "relative-json-pointer": { source: String.raw`(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)`, ignoreCase: false },
  byte: { source: String.raw`(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?`, ignoreCase: false },
};

/** The enforced language of a string format, or undefined for a format without one (number formats, `password`). */
export function formatSource(name: string): FormatSource | undefined {
  return Object.hasOwn(SOURCES, name) ? SOURCES[name] : undefined;
}

const compiled = new Map<string, RegExp>();

/**
 * Whether `value` is in the format's enforced language (true for a format without one). Used together with
 * ajv-formats' own check: the `u` flag's Unicode case folding (`K`, the Kelvin sign, matches `k`) is wider than
 * ASCII folding only on non-ASCII letters, which ajv's ASCII regexes refuse anyway.
 */
export function matchesFormatSource(name: string, value: string): boolean {
  const f = formatSource(name);
  if (f === undefined) return true;
  let re = compiled.get(name);
  if (re === undefined) {
    re = new RegExp(`^(?:${f.source})$`, f.ignoreCase ? "iu" : "u");
    compiled.set(name, re);
  }
  return re.test(value);
}
