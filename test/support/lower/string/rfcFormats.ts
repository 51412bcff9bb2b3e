/**
 * Independent checkers of each format's standard grammar, written from the RFCs' ABNF as small parsers (not from
 * toolgram's regular expressions), so that "valid under ajv-formats AND under the standard" can be tested on strings
 * sampled from the compiled grammars. Each returns whether the whole string is valid.
 */

const ALPHA = /^[A-Za-z]$/;
const _DIGIT = /^[0-9]$/;
const HEX = /^[0-9A-Fa-f]$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
const SUB_DELIMS = /^[!$&'()*+,;=]$/;

/** RFC 3986 §2.1: "%" HEXDIG HEXDIG, and the other characters each one of `allowed`. */
function pctOr(s: string, allowed: (c: string) => boolean): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "%") {
      if (!(HEX.test(s[i + 1] ?? "") && HEX.test(s[i + 2] ?? ""))) return false;
      i += 2;
    } else if (!allowed(s[i])) return false;
  }
  return true;
}

const isPchar = (c: string): boolean => UNRESERVED.test(c) || SUB_DELIMS.test(c) || c === ":" || c === "@";
const isSegment = (s: string): boolean => pctOr(s, isPchar);

/** RFC 3986 §3.2.2 dec-octet: 0-255 without leading zeros. */
function decOctet(s: string): boolean {
  return /^(?:0|[1-9][0-9]{0,2})$/.test(s) && Number(s) <= 255;
}

export function rfcIpv4(s: string): boolean {
  const parts = s.split(".");
  return parts.length === 4 && parts.every(decOctet);
}

/** RFC 4291 §2.2 text forms = RFC 3986 IPv6address: 8 groups, or fewer with one "::", an IPv4 tail worth 2. */
export function rfcIpv6(s: string): boolean {
  let groups = 0;
  let head = s;
  const lastColon = s.lastIndexOf(":");
  if (lastColon >= 0 && s.slice(lastColon + 1).includes(".")) {
    if (!rfcIpv4(s.slice(lastColon + 1))) return false;
    groups += 2;
    head = s.slice(0, lastColon + 1);
    // "::1.2.3.4" keeps "::"; "a:1.2.3.4" leaves "a:" whose trailing colon separates the tail
    if (!head.endsWith("::")) head = head.slice(0, -1);
  }
  const double = head.indexOf("::");
  if (double !== head.lastIndexOf("::") || head.includes(":::")) return false;
  const h16 = (g: string): boolean => /^[0-9A-Fa-f]{1,4}$/.test(g);
  if (double < 0) {
    const gs = head.split(":");
    return gs.every(h16) && gs.length + groups === 8;
  }
  const left = head.slice(0, double);
  const right = head.slice(double + 2);
  const ls = left === "" ? [] : left.split(":");
  const rs = right === "" ? [] : right.split(":");
  if (!ls.every(h16) || !rs.every(h16)) return false;
  return ls.length + rs.length + groups <= 7; // "::" stands for at least one group
}

/** RFC 3986 §3.2 authority = [ userinfo "@" ] host [ ":" port ]. */
function authority(a: string): boolean {
  const at = a.indexOf("@");
  let hostPort = a;
  if (at >= 0) {
    if (!pctOr(a.slice(0, at), (c) => UNRESERVED.test(c) || SUB_DELIMS.test(c) || c === ":")) return false;
    hostPort = a.slice(at + 1);
  }
  let host = hostPort;
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    if (close < 0) return false;
    const literal = hostPort.slice(1, close);
    const future = /^[vV][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/.test(literal);
    if (!future && !rfcIpv6(literal)) return false;
    const rest = hostPort.slice(close + 1);
    return rest === "" || /^:[0-9]*$/.test(rest);
  }
  const colon = hostPort.lastIndexOf(":");
  if (colon >= 0) {
    if (!/^[0-9]*$/.test(hostPort.slice(colon + 1))) return false;
    host = hostPort.slice(0, colon);
  }
  // IPv4address is also a reg-name
  return pctOr(host, (c) => UNRESERVED.test(c) || SUB_DELIMS.test(c));
}

const APPENDIX_B = /^(([^:/?#]+):)?(\/\/([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$/s;

/** RFC 3986 §4.1 URI-reference (`requireScheme`: §3 URI). */
function uriReference(s: string, requireScheme: boolean): boolean {
  const m = APPENDIX_B.exec(s);
  if (!m) return false;
  const [, , scheme, hasAuthority, auth, path, hasQuery, query, hasFragment, fragment] = m;
  if (scheme !== undefined && !(ALPHA.test(scheme[0]) && /^[A-Za-z0-9+\-.]*$/.test(scheme))) return false;
  if (scheme === undefined && requireScheme) return false;
  if (hasAuthority !== undefined) {
    if (!authority(auth)) return false;
    if (path !== "" && !path.startsWith("/")) return false; // path-abempty
  } else if (path.startsWith("//")) return false;
  const segments = path.split("/");
  if (!segments.every(isSegment)) return false;
  // a relative reference's first segment (path-noscheme) has no ":", or it would read as a scheme
  if (scheme === undefined && hasAuthority === undefined && !path.startsWith("/") && segments[0].includes(":"))
    return false;
  const qf = (x: string): boolean => pctOr(x, (c) => isPchar(c) || c === "/" || c === "?");
  if (hasQuery !== undefined && !qf(query)) return false;
  if (hasFragment !== undefined && !qf(fragment)) return false;
  return true;
}

export const rfcUri = (s: string): boolean => uriReference(s, true);
export const rfcUriReference = (s: string): boolean => uriReference(s, false);

/** RFC 1123 §2.1 host name: labels of 1-63 letters, digits, inner hyphens; at most 253 characters; no empty label. */
export function rfcHostname(s: string): boolean {
  if (s.length === 0 || s.length > 253) return false;
  // RFC 5890 §2.3.1: a label with "--" in its 3rd and 4th position is a reserved LDH label (an `xn--` A-label is
  // valid only when its Punycode decodes to a valid U-label, which this checker does not do either)
  return s
    .split(".")
    .every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(l) && l.length <= 63 && l.slice(2, 4) !== "--");
}

/** RFC 5321 §4.1.2 Mailbox with a Dot-string local part (RFC 5322 dot-atom) and a Domain of sub-domains. */
export function rfcEmail(s: string): boolean {
  const at = s.lastIndexOf("@");
  if (at < 0) return false;
  const local = s.slice(0, at);
  const domain = s.slice(at + 1);
  const atom = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+$/;
  if (!local.split(".").every((a) => atom.test(a))) return false;
  return domain.split(".").every((l) => /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/.test(l));
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** RFC 3339 §5.6 full-date, with §5.7's day-of-month rule. */
export function rfcDate(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [+m[1], +m[2], +m[3]];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(y, mo);
}

/**
 * RFC 3339 §5.6 full-time = partial-time time-offset (`offsetRequired: false` reads ISO 8601's optional offset). A
 * second of 60 is a leap second: only at 23:59 UTC (§5.7).
 */
export function rfcTime(s: string, offsetRequired = true): boolean {
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))?$/.exec(s);
  if (!m || (offsetRequired && m[5] === undefined)) return false;
  const [h, min, sec] = [+m[1], +m[2], +m[3]];
  if (h > 23 || min > 59 || sec > 60) return false;
  let offset = 0;
  if (m[6] !== undefined) {
    if (+m[7] > 23 || +m[8] > 59) return false;
    offset = (m[6] === "+" ? 1 : -1) * (+m[7] * 60 + +m[8]);
  }
  if (sec === 60) {
    const utc = (((h * 60 + min - offset) % 1440) + 1440) % 1440;
    return utc === 23 * 60 + 59;
  }
  return true;
}

/** RFC 3339 §5.6 date-time = full-date "T" full-time ("T" in any case, or a space, as its note allows). */
export function rfcDateTime(s: string, offsetRequired = true): boolean {
  return s.length > 11 && /^[Tt ]$/.test(s[10]) && rfcDate(s.slice(0, 10)) && rfcTime(s.slice(11), offsetRequired);
}

/** RFC 3339 Appendix A duration, by its ABNF's nesting (`dur-year = 1*DIGIT "Y" [dur-month]`...). */
export function rfcDuration(s: string): boolean {
  let i = 0;
  const unit = (u: string): boolean => {
    const m = /^[0-9]+/.exec(s.slice(i));
    if (!m || s[i + m[0].length] !== u) return false;
    i += m[0].length + 1;
    return true;
  };
  const chain = (units: string[]): boolean => {
    // the first of `units` present, then each next one optionally, without skipping
    for (let k = 0; k < units.length; k++) {
      const save = i;
      if (unit(units[k])) {
        for (let n = k + 1; n < units.length; n++) if (!unit(units[n])) break;
        return true;
      }
      i = save;
    }
    return false;
  };
  if (s[i++] !== "P") return false;
  const durTime = (): boolean => s[i++] === "T" && chain(["H", "M", "S"]);
  if (s[i] === "T") return durTime() && i === s.length;
  const save = i;
  if (unit("W")) return i === s.length;
  i = save;
  if (!chain(["Y", "M", "D"])) return false;
  if (i === s.length) return true;
  return durTime() && i === s.length;
}

/** RFC 4122 §3 UUID string: 8-4-4-4-12 hex digits. */
export function rfcUuid(s: string): boolean {
  return /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/.test(s);
}

/** RFC 6901 §3 json-pointer. */
export function rfcJsonPointer(s: string): boolean {
  if (s === "") return true;
  if (s[0] !== "/") return false;
  for (let i = 0; i < s.length; i++) if (s[i] === "~" && s[i + 1] !== "0" && s[i + 1] !== "1") return false;
  return true;
}

/** draft-handrews-relative-json-pointer-01: non-negative-integer ( "#" / json-pointer ). */
export function rfcRelativeJsonPointer(s: string): boolean {
  const m = /^(0|[1-9][0-9]*)(.*)$/s.exec(s);
  return m !== null && (m[2] === "#" || rfcJsonPointer(m[2]));
}

/** RFC 6901 §6: "#" then a json-pointer, percent-encoded as an RFC 3986 fragment. */
export function rfcJsonPointerUriFragment(s: string): boolean {
  if (s[0] !== "#") return false;
  const frag = s.slice(1);
  if (!pctOr(frag, (c) => isPchar(c) || c === "/" || c === "?")) return false;
  let decoded: string;
  try {
    decoded = decodeURIComponent(frag);
  } catch {
    return false;
  }
  return rfcJsonPointer(decoded);
}

/** RFC 6570 §2.1 literals: the code points allowed outside expressions. */
function templateLiteral(cp: number): boolean {
  if ([0x21, 0x23, 0x24, 0x26, 0x3d, 0x5d, 0x5f, 0x7e].includes(cp)) return true;
  if ((cp >= 0x28 && cp <= 0x3b) || (cp >= 0x3f && cp <= 0x5b) || (cp >= 0x61 && cp <= 0x7a)) return true;
  // ucschar
  if ((cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xf900 && cp <= 0xfdcf) || (cp >= 0xfdf0 && cp <= 0xffef)) return true;
  if (cp >= 0x10000 && cp <= 0xefffd && (cp & 0xffff) <= 0xfffd && !(cp >= 0xe0000 && cp < 0xe1000)) return true;
  // iprivate
  if ((cp >= 0xe000 && cp <= 0xf8ff) || (cp >= 0xf0000 && cp <= 0xffffd) || (cp >= 0x100000 && cp <= 0x10fffd))
    return true;
  return false;
}

/** RFC 6570 §2 URI-Template = *( literals / expression ), level 4. */
export function rfcUriTemplate(s: string): boolean {
  const cps = Array.from(s);
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i];
    if (c === "%") {
      if (!(HEX.test(cps[i + 1] ?? "") && HEX.test(cps[i + 2] ?? ""))) return false;
      i += 2;
      continue;
    }
    if (c !== "{") {
      if (!templateLiteral(c.codePointAt(0)!)) return false;
      continue;
    }
    const close = cps.indexOf("}", i);
    if (close < 0) return false;
    let body = cps.slice(i + 1, close).join("");
    if (/^[+#./;?&=,!@|]/.test(body)) body = body.slice(1);
    const varspec =
      /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*(?::[1-9][0-9]{0,3}|\*)?$/;
    if (!body.split(",").every((v) => varspec.test(v))) return false;
    i = close;
  }
  return true;
}

/** RFC 4648 §4 base64, the whole string. */
export function rfcBase64(s: string): boolean {
  return s.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(s) && !/=[^=]/.test(s);
}

/** Each enforced string format's standard checker. */
export const RFC_CHECKERS: Readonly<Record<string, (s: string) => boolean>> = {
  date: rfcDate,
  time: (s) => rfcTime(s, true),
  "iso-time": (s) => rfcTime(s, false),
  "date-time": (s) => rfcDateTime(s, true),
  "iso-date-time": (s) => rfcDateTime(s, false),
  duration: rfcDuration,
  uri: rfcUri,
  "uri-reference": rfcUriReference,
  "uri-template": rfcUriTemplate,
  email: rfcEmail,
  hostname: rfcHostname,
  ipv4: rfcIpv4,
  ipv6: rfcIpv6,
  uuid: rfcUuid,
  "json-pointer": rfcJsonPointer,
  "json-pointer-uri-fragment": rfcJsonPointerUriFragment,
  "relative-json-pointer": rfcRelativeJsonPointer,
  byte: rfcBase64,
};
