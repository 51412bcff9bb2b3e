import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { checkAgreement, judge, mutated, spec, stringsOver } from "../../support/lower/string/judge.js";

/** ajv-formats' own regular expressions (anchored), used to generate valid-looking candidates. */
const SHAPES: Record<string, RegExp> = {
  date: /^\d{4}-[01]\d-[0-3]\d$/,
  time: /^(?:[0-2]\d:[0-6]\d:[0-6]\d(?:\.\d{1,3})?)(?:[zZ]|[+-][0-2]\d(?::?[0-6]\d)?)?$/,
  "date-time": /^\d{4}-[01]\d-[0-3]\d[tT ](?:[0-2]\d:[0-5]\d:[0-6]\d(?:\.\d+)?)(?:[zZ]|[+-][0-2]\d(?::?[0-5]\d)?)$/,
  "iso-time": /^(?:[0-2]\d:[0-5]\d:[0-6]\d)(?:[zZ]|[+-][0-2]\d(?::?[0-5]\d)?)?$/,
  duration: /^P(?:\d{1,2}[YMDW]){0,3}(?:T(?:\d{1,2}[HMS]){0,3})?$/,
  email: /^[a-zA-Z0-9.!#-]{1,5}@[a-z0-9-]{1,5}(?:\.[a-zA-Z0-9-]{1,4}){0,2}$/,
  hostname: /^[a-zA-Z0-9-]{1,5}(?:\.[a-z0-9-]{1,4}){0,3}\.?$/,
  ipv4: /^(?:\d{1,3}\.){3}\d{1,3}$/,
  ipv6: /^(?:[0-9a-fA-F]{0,4}:){2,7}(?:[0-9a-fA-F]{1,4}|(?:\d{1,3}\.){3}\d{1,3})?$/,
  uuid: /^(?:urn:uuid:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$/,
  uri: /^[a-z][a-z0-9+.-]{0,4}:(?:\/\/[a-z0-9.:@%[\]]{0,8})?(?:\/[a-z0-9%~!.]{0,4}){0,3}(?:\?[a-z=&]{0,4})?(?:#[a-z/]{0,3})?$/,
  "uri-reference":
    /^(?:[a-z][a-z0-9]{0,3}:)?(?:\/\/[a-z0-9.:@[\]]{0,8})?(?:\/[a-z0-9%"~]{0,4}){0,3}(?:\?[a-z=&]{0,4})?(?:#[a-z/]{0,3})?$/,
  "uri-template": /^(?:[a-z/]{0,4}|\{[+#]?[a-z0-9_]{1,3}(?::[0-9]{1,4}|\*)?(?:,[a-z]{1,2})*\}|%[0-9a-fA-F]{2}){0,4}$/,
  // ajv-formats' web URL: schemes in either case (and the long s its `iu` flags fold to `s`), userinfo, private and
  // public IPv4 hosts, names with non-ASCII letters, ports, paths with any non-space character
  url: /^(?:https?|ftp|HTTP[Sſ]?|fTp):\/\/(?:[a-z0-9:@]{1,3}@)?(?:(?:1[0-9]{0,2}|172|192|169|22[0-5]|0)(?:\.\d{1,3}){1,3}|[a-zä0-9-]{1,4}(?:\.[a-zä0-9-]{1,4}){0,2}\.[a-zäA-Z]{1,3})(?::\d{1,6})?(?:\/[a-z ä/"\\%]{0,5})?$/,
  "json-pointer": /^(?:\/(?:[a-z~]|~0|~1){0,4}){0,3}$/,
  "json-pointer-uri-fragment": /^#(?:\/(?:[a-z~%]|~0|~1|%[0-9a-f]{2}){0,4}){0,3}$/,
  "relative-json-pointer": /^\d{1,2}(?:#|(?:\/(?:[a-z~]|~0|~1){0,3}){0,3})$/,
  byte: /^(?:[A-Za-z0-9+/]{4}){0,3}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
};

const ALPHABET = [..."0123456789:-.+TtZzPYMDWHS@/#?%[]{}~aAfFxX_=*,", "\n"];

const TIME_PARTS = /^(\d\d):(\d\d):(\d\d(?:\.\d+)?)(z|([+-])(\d\d)(?::?(\d\d))?)?$/i;
/** ajv-formats' leap-second cases that toolgram deliberately rejects (documented in src/schema/formatSources.ts). */
function leapNarrowing(v: string): boolean {
  const t = TIME_PARTS.exec(v.replace(/^\d{4}-\d\d-\d\d[t\s]/i, ""));
  if (!t) return false;
  const ordinary = +t[1] <= 23 && +t[2] <= 59 && +t[3] < 60;
  const zeroOffset = !t[6] || (+t[6] === 0 && +(t[7] ?? 0) === 0);
  return !ordinary && !zeroOffset;
}

describe("formats agree with ajv-formats (full) AND the RFC grammar (independent checkers)", () => {
  for (const [name, shape] of Object.entries(SHAPES)) {
    it(name, () => {
      const s = spec({ formats: [name], ...(name === "hostname" ? { maxLength: 64 } : {}) });
      const j = judge(s);
      const shaped = fc.stringMatching(shape);
      checkAgreement(j, fc.oneof(shaped, mutated(shaped, ALPHABET), stringsOver(ALPHABET, 10)), 400, leapNarrowing);
    });
  }
});

describe("format corner cases", () => {
  // [valid, invalid, narrowed]: narrowed values are valid for ajv-formats but not under the format's RFC grammar, so
  // the grammar rejects them (a narrowing of ajv, never a widening)
  const cases: Record<string, [string[], string[], string[]?]> = {
    date: [
      ["2024-02-29", "2000-02-29", "0000-02-29", "1999-12-31", "2023-04-30"],
      ["1900-02-29", "2023-02-29", "2023-04-31", "2023-13-01", "2023-00-10", "2023-01-00", "20230101", "2023-1-01"],
    ],
    time: [
      [
        "23:59:60Z",
        "23:59:60+00:00",
        "23:59:60.5z",
        "12:34:56.789+05:30",
        "00:00:00-23:59",
        "23:59:59.9999999999999999Z",
        "23:59:60.99999999999999644728632119949907064437866210937Z",
      ],
      [
        "12:34:56",
        "24:00:00Z",
        "12:60:00Z",
        "12:00:60Z",
        "12:00:00+24:00",
        "12:00:00+01:60",
        "12:00:59.9999999999999999Z",
        "23:59:60.999999999999996447286321199499070644378662109375Z",
      ],
      // RFC 3339 time-numoffset is ("+" / "-") time-hour ":" time-minute
      ["00:00:00-2359", "12:00:00+01", "12:00:00+0100", "23:59:60+0000", "23:59:60-00"],
    ],
    "date-time": [
      [
        "2024-02-29T12:00:00Z",
        "2024-02-29t12:00:00z",
        "2024-02-29 12:00:00+01:00",
        "1985-04-12T23:20:50.52Z",
        "1996-12-19T16:39:57-08:00",
        "1990-12-31T23:59:60Z",
        "1937-01-01T12:00:27.87+00:20",
      ],
      ["2023-02-29T12:00:00Z", "2024-02-29T12:00:00", "2024-02-29TT12:00:00Z", "2024-02-29\n\n12:00:00Z"],
      // RFC 3339's examples above; ajv also takes any \s as the separator and offsets without a colon
      [
        "2024-02-29\u00a012:00:00Z",
        "2024-02-29\u200012:00:00Z",
        "2024-02-29\t12:00:00Z",
        "2024-02-29T12:00:00+0100",
        "2024-02-29T12:00:00+01",
      ],
    ],
    duration: [
      ["P1Y", "PT1S", "P1W", "P1Y2M3DT4H5M6S", "P0D", "P1Y2M", "PT1H2M", "P3DT12H"],
      ["P", "PT", "P1YT", "P1W1D", "1Y", "P1S"],
      // RFC 3339 Appendix A: dur-year = 1*DIGIT "Y" [dur-month], dur-hour = 1*DIGIT "H" [dur-minute]
      ["P1Y2D", "PT1H2S", "P1Y3DT1S"],
    ],
    byte: [
      ["", "QUJD", "QUI=", "QQ=="],
      ["QUJ", "Q===", "QUJD!", "Q", "x\ry"],
      ["!!!\n", "\u2028", "x\r\ny", "x\nQUJD"],
    ],
    email: [
      [
        "a@b.c",
        "A.B@X-Y.Z",
        "x+y@example.com",
        "jsmith@example.com",
        "!#$%&'*+-/=?^_`{}|~@example.org",
        `a@${"x".repeat(63)}.c`,
      ],
      ["a@b", ".a@b.c", "a..b@c.d", "a@-b.c", "a@b-.c", '"a b"@c.d', "a@[127.0.0.1]", "a.@b.c"],
    ],
    uuid: [
      ["123e4567-e89b-12d3-a456-426614174000", "F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"],
      ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400"],
      // RFC 4122 §3 defines the bare string; "urn:uuid:" makes it the URN
      ["URN:UUID:123E4567-E89B-12D3-A456-426614174000", "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6"],
    ],
    ipv4: [
      ["0.0.0.0", "255.255.255.255", "192.0.2.33"],
      ["256.0.0.0", "01.1.1.1", "1.1.1", "1.1.1.1.1"],
    ],
    ipv6: [
      // RFC 4291 §2.2's examples
      [
        "::",
        "::1",
        "1::",
        "2001:db8::8a2e:370:7334",
        "::ffff:192.168.0.1",
        "1:2:3:4:5:6:7:8",
        "ABCD:EF01:2345:6789:ABCD:EF01:2345:6789",
        "2001:DB8:0:0:8:800:200C:417A",
        "2001:DB8::8:800:200C:417A",
        "FF01::101",
        "0:0:0:0:0:0:13.1.68.3",
        "::13.1.68.3",
        "::FFFF:129.144.52.38",
        "1:2:3:4:5:6:7::",
      ],
      [
        ":::",
        "1:2:3:4:5:6:7:8:9",
        "12345::",
        "1::2::3",
        ":1:2:3:4:5:6:7",
        "::1.2.3.256",
        "fe80::1%eth0",
        "1:2:3:4:5:6:7:8::",
      ],
    ],
    hostname: [
      ["a", "a.b", "example.com", "a--b.com", "abc--d", "1.2.3.4", "a-b.c", "x".repeat(63)],
      ["", "-a", "a-", "x".repeat(64), "a..b", ".a", "a_b.c", "a b"],
      // RFC 1123 §2.1 / RFC 952: no trailing dot (ajv accepts the absolute form); RFC 5890 §2.3.1: no reserved LDH
      // label ("--" in the 3rd and 4th position), A-labels included (their Punycode is not checked)
      ["a.", "a-b.c.", "xn--bcher-kva.example", "ab--c", "a.XN--aa---o47jg78q", "xn--X"],
    ],
    uri: [
      [
        "http://example.com/a?b#c",
        "urn:isbn:123",
        "mailto:a@b.c",
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "http://www.ietf.org/rfc/rfc2396.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "news:comp.infosystems.www.servers.unix",
        "tel:+1-816-555-1212",
        "telnet://192.0.2.16:80/",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        "foo://example.com:8042/over/there?name=ferret#nose",
      ],
      [
        "a:",
        "//example.com",
        "/a/b",
        "http://exa mple.com",
        "",
        "http://a/%zz",
        "1a:b",
        "http://a/b c",
        'http://a/"b"',
        'http://"a"/',
        'a:b?"',
        'a:#"',
      ],
      // RFC 3986: an authority follows "//", never one "/"
      ["a:/[::1]", "a:/[v1.x]/b", "a://[::1:2:3.04.5.6]/"],
    ],
    "uri-reference": [
      [
        "",
        "/a/b",
        "//example.com",
        "a/b",
        "./a:b",
        "?q",
        "#f",
        "../../g",
        "g;x?y#s",
        "http://a/b/c/d;p?q",
        "//[::1]:80/x",
        "a:b",
      ],
      ["http://exa mple.com", "%zz", "a b", "\\a", "http://a/%"],
      // RFC 3986 §4.2: a relative reference's first segment has no ":" (segment-nz-nc); '"' is not a URI character
      ["://", ":a", "1:b/c", "/[::1]", '"', 'a/"b"', "//[::03.1.1.1]"],
    ],
    "uri-template": [
      [
        "http://x/{a}",
        "{+a,b:3}",
        "",
        "{var}",
        "{+path}/here",
        "{#x,hello,y}",
        "X{.var:3}",
        "{/list*}",
        "{?x,y}",
        "{;x,y,empty}",
        "%20",
        "é{a}",
      ],
      ["{", "{a", "a b", "{a:0}", "{a,}", "{}", "a>b", "{a.b}"],
      // RFC 6570 §2.1: literals exclude DEL, the C1 controls and non-characters
      ["\u007f", "a\u0085b", "\ufdd0", "\uffff"],
    ],
    url: [
      [
        "http://a.bc",
        "HTTPS://Foo.Example.COM:8080/a b".replace(" ", "%20"),
        "ftp://user:pw@1.2.3.4/x",
        "http://172.15.0.1",
        "http://223.255.255.254",
        "http://exämple.测试/ü?q#f",
        "httpſ://a.bc",
        'http://a.bc/"<>{}',
      ],
      [
        "http://a",
        "http://10.0.0.1",
        "http://127.0.0.1/",
        "http://192.168.1.1",
        "http://169.254.1.1",
        "http://172.16.0.1",
        "http://172.31.255.255",
        "http://224.0.0.1",
        "http://1.2.3.255",
        "mailto:a@b.cd",
        "http://a.bc/x y",
        "http://a.b1",
        "http://-a.bc",
        "http://a.bc:1",
      ],
    ],
    "json-pointer": [
      ["", "/", "/a~0b/~1", "/😀", "/foo/0", "/a~1b", "/c%d", "/ "],
      ["a", "/~2", "/~", "#/a"],
    ],
    "relative-json-pointer": [
      ["0", "1#", "12/a/b", "0/foo/bar", "2/highly/nested/objects"],
      ["01", "-1", "#", "1/~", "+1"],
    ],
    "json-pointer-uri-fragment": [
      ["#", "#/a", "#/a%20b", "#/~0~1", "#/%C3%A9", "#/%F0%9F%98%80", "#/%25"],
      ["/a", "#a", "#/a b", "#/~2"],
      // RFC 6901 §6: the escapes are the pointer's UTF-8 bytes
      ["#/%aa", "#/%C3", "#/%ED%A0%80", "#/%7E2"],
    ],
  };
  for (const [name, [valid, invalid, narrowed]] of Object.entries(cases)) {
    it(name, () => {
      const j = judge(spec({ formats: [name], ...(name === "hostname" ? { maxLength: 70 } : {}) }));
      for (const v of valid) expect([v, j.ajv(v), j.rfc(v), j.grammar(v)]).toEqual([v, true, true, true]);
      for (const v of invalid) expect([v, j.ajv(v), j.grammar(v)]).toEqual([v, false, false]);
      for (const v of narrowed ?? []) expect([v, j.ajv(v), j.rfc(v), j.grammar(v)]).toEqual([v, true, false, false]);
    });
  }

  it("hostname alone enforces the 253-character total", () => {
    // the product automaton of labels × 253 lengths: about 23,000 rules, built once
    for (const j of [judge(spec({ formats: ["hostname"] }))]) {
      const longest = `${"a.".repeat(126)}a`;
      for (const v of ["a", "a.b", "a-b.c", "x".repeat(63), longest])
        expect([v, j.ajv(v), j.grammar(v)]).toEqual([v, true, true]);
      for (const v of ["", "-a", "a-", "x".repeat(64), "a..b", `a.${longest}`])
        expect([v, j.ajv(v), j.grammar(v)]).toEqual([v, false, false]);
    }
    const shorter = judge(spec({ formats: ["hostname"], maxLength: 5 }));
    expect([shorter.grammar("a.b.c"), shorter.grammar("a.b.cd")]).toEqual([true, false]);
  });

  it("refuses unsupported formats, ignores them with strict: false", () => {
    expect(() => judge(spec({ formats: ["regex"] }))).toThrow(expect.objectContaining({ code: "UNSUPPORTED_FORMAT" }));
    expect(() => judge(spec({ formats: ["idn-email"] }))).toThrow(
      expect.objectContaining({ code: "UNSUPPORTED_FORMAT" }),
    );
  });

  it("number formats and annotations do not constrain strings", () => {
    const j = judge(spec({ formats: ["int32", "password"] }));
    expect(j.grammar("anything")).toBe(true);
  });
});

describe("calendar and clock, exhaustively where it is cheap", () => {
  it("Feb 29 in every four-digit year, every month/day in sample years", () => {
    const j = judge(spec({ formats: ["date"] }));
    const pad = (n: number, w: number) => String(n).padStart(w, "0");
    for (let y = 0; y <= 9999; y++) {
      const v = `${pad(y, 4)}-02-29`;
      if (j.grammar(v) !== j.ajv(v)) expect([v, j.grammar(v)]).toEqual([v, j.ajv(v)]);
    }
    for (const y of [1900, 2000, 2023, 2024]) {
      for (let m = 0; m <= 13; m++) {
        for (let d = 0; d <= 32; d++) {
          const v = `${y}-${pad(m, 2)}-${pad(d, 2)}`;
          if (j.grammar(v) !== j.ajv(v)) expect([v, j.grammar(v)]).toEqual([v, j.ajv(v)]);
        }
      }
    }
  });

  it("hours, minutes, seconds and offsets", () => {
    const j = judge(spec({ formats: ["time"] }));
    const pad = (n: number) => String(n).padStart(2, "0");
    for (let h = 0; h <= 25; h++) {
      for (const m of [0, 1, 58, 59, 60, 99]) {
        for (const s of ["00", "59", "60", "61", "59.5", "60.5"]) {
          for (const tz of ["Z", "z", "+00:00", "-00", "+0000", "+01:00", "-23:59", "+24:00", "+01:60", "", "+1"]) {
            const v = `${pad(h)}:${pad(m)}:${s}${tz}`;
            const g = j.grammar(v);
            const a = j.reference(v);
            if (g !== a && !(a && !g && leapNarrowing(v))) expect([v, g]).toEqual([v, a]);
          }
        }
      }
    }
  });
});
