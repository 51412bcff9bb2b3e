/**
 * The complement of `format` (for `not` and overlapping `oneOf`): each language in src/schema/formatComplements.ts is
 * ajv-formats' own, checked on valid, near-valid and random strings; and random overlapping `oneOf`s of object
 * branches told apart by a key with a `format` (the shape of a published MCP server's page parents) compile, their
 * random walks are valid for ajv and candidates are judged as ajv judges them. Seeded; `FC_SEED=<n>` replays.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSchema } from "../../src/compile.js";
import { Referee } from "../../src/conformance/referee.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson, type JsonValue } from "../../src/json.js";
import { ajvFormatLanguage } from "../../src/schema/formatComplements.js";
import { checkFormat } from "../../src/schema/stringFormats.js";
import { sampleGrammar } from "../../src/testing/sampleGrammar.js";
import { seededRandom } from "../../src/util/seededRandom.js";
import { fullFormats } from "ajv-formats/dist/formats.js";

const SEED = Number(process.env.FC_SEED ?? 20261128);
const referee = new Referee();
const FORMATS = ["uuid", "ipv4", "ipv6", "email", "json-pointer", "relative-json-pointer", "url"] as const;
const ajvRegex = (name: (typeof FORMATS)[number]) => fullFormats[name] as RegExp;

const hexString = (n: number) =>
  fc.array(fc.constantFrom(..."0123456789abcdefABCDEF"), { minLength: n, maxLength: n }).map((a) => a.join(""));
const uuid = fc
  .tuple(fc.constantFrom("", "urn:uuid:", "URN:uuid:", "urn:UUID:"), hexString(8), hexString(4), hexString(4))
  .chain(([pre, a, b, c]) => fc.tuple(hexString(4), hexString(12)).map(([d, e]) => `${pre}${a}-${b}-${c}-${d}-${e}`));
const ipv4 = fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 4, maxLength: 4 }).map((a) => a.join("."));
/** 1 to 8 groups of 1 to 4 hex digits, some run of them written `::`, sometimes an IPv4 tail. */
const ipv6 = fc
  .tuple(
    fc.array(fc.integer({ min: 1, max: 4 }).chain(hexString), { minLength: 1, maxLength: 8 }),
    fc.option(fc.nat(8)),
    fc.option(ipv4),
  )
  .map(([groups, gap, tail]) => {
    const gs = tail === null ? groups : [...groups.slice(0, 6), tail];
    if (gap === null) return gs.join(":");
    const k = gap % (gs.length + 1);
    return `${gs.slice(0, k).join(":")}::${gs.slice(k).join(":")}`;
  });
const word = (units: string, maxLength = 6) => fc.string({ unit: fc.constantFrom(...units), minLength: 1, maxLength });
const email = fc
  .tuple(word("aZ9.!~-_+"), fc.array(word("aZ9-"), { minLength: 1, maxLength: 3 }))
  .map(([local, labels]) => `${local}@${labels.join(".")}`);
const pointer = fc.array(word("a~01/é😀", 4), { maxLength: 3 }).map((ps) => ps.map((p) => `/${p}`).join(""));
const relativePointer = fc
  .tuple(fc.constantFrom("0", "1", "12", "01"), fc.oneof(fc.constant("#"), pointer))
  .map(([n, rest]) => n + rest);
/** Web URLs: schemes in both cases (and the long s ajv's `iu` folds to `s`), private and public IPv4 hosts, names. */
const url = fc
  .tuple(
    fc.constantFrom("http", "https", "ftp", "HTTPS", "hTtP", "httpſ", "ftps", "file"),
    fc.option(fc.constantFrom("u@", "u:p@", ":@", "a b@")),
    fc.oneof(ipv4, fc.constantFrom("10.1.2.3", "127.0.0.1", "172.16.5.4", "172.32.0.1", "192.168.0.1", "169.254.0.1")),
    fc.array(word("aZ9-ä", 4), { minLength: 1, maxLength: 3 }),
    fc.constantFrom("com", "DE", "ä测", "x", "c0"),
    fc.option(fc.constantFrom(":8", ":80", ":65535", ":123456")),
    fc.option(word('a/ ä"%<', 6)),
    fc.boolean(),
  )
  .map(([scheme, user, ip, labels, tld, port, path, byIp]) => {
    const host = byIp ? ip : [...labels, tld].join(".");
    return `${scheme}://${user ?? ""}${host}${port ?? ""}${path === null ? "" : `/${path}`}`;
  });
/** A valid-looking string with one code point changed, dropped or added. */
const mutated = (s: fc.Arbitrary<string>) =>
  fc
    .tuple(s, fc.nat(), fc.constantFrom("", "0", "a", "G", "-", ".", ":", "00", "@", "/", "~", "#"))
    .map(([v, i, c]) => {
      const cps = [...v];
      const k = i % (cps.length + 1);
      return [...cps.slice(0, k), c, ...cps.slice(k + (c === "0" ? 0 : 1))].join("");
    });
const SAMPLES: Record<(typeof FORMATS)[number], fc.Arbitrary<string>> = {
  uuid,
  ipv4,
  ipv6,
  email,
  "json-pointer": pointer,
  "relative-json-pointer": relativePointer,
  url,
};
const random = fc.string({ unit: fc.constantFrom(..."0123456789abcfAF-.:urnid@/~#"), maxLength: 48 });

describe(`format complements (seed ${SEED})`, () => {
  it.each(FORMATS)("%s: the language is ajv-formats' own", (name) => {
    const re = new RegExp(ajvFormatLanguage(name) ?? "(?!)", "u");
    const s = SAMPLES[name];
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof(s, mutated(s), random), (v) => {
        expect({ v, ours: re.test(v) }).toEqual({ v, ours: ajvRegex(name).test(v) });
        if (re.test(v)) valid++;
      }),
      { seed: SEED, numRuns: 3000 },
    );
    expect(valid).toBeGreaterThan(name === "url" ? 60 : 200);
  });

  it("formats without a copied ajv language keep the refusal, named", () => {
    expect(ajvFormatLanguage("uri")).toBeUndefined();
    expect(() => compileSchema({ not: { format: "uri" } })).toThrow(/complement of `format: uri`/);
  });

  it.each(FORMATS)("`not: {format: %s}` accepts exactly the strings ajv rejects", (name) => {
    const schema = { type: "string", not: { format: name } };
    const c = compileSchema(schema);
    fc.assert(
      fc.property(fc.oneof(SAMPLES[name], mutated(SAMPLES[name])), (v) => {
        const t = JSON.stringify(v);
        expect({ v, accepted: c.accepts(t) }).toEqual({ v, accepted: referee.validText(schema, t) });
      }),
      { seed: SEED, numRuns: 200 },
    );
  });
});

// overlapping oneOfs of object branches: a key with a format, a const discriminator, open or closed
const KEYS = ["a", "b", "type"];
const keySchema = fc.constantFrom<JsonValue>(
  { type: "string", format: "uuid" },
  { format: "ipv4" },
  { type: "string" },
  { const: "x" },
  { const: "y" },
);
const branch = fc
  .record({
    properties: fc.dictionary(fc.constantFrom(...KEYS), keySchema, { minKeys: 1, maxKeys: 2 }),
    required: fc.subarray(KEYS, { maxLength: 2 }),
    additionalProperties: fc.constantFrom(true, false),
  })
  .map((o) => ({ type: "object", ...o }) as JsonValue);
const exactValues: JsonValue[] = [
  "123e4567-e89b-12d3-a456-426614174000",
  "123E4567-E89B-12D3-A456-426614174000",
  "123e4567-e89b-12d3-a456-42661417400",
  "10.0.0.1",
  "256.0.0.1",
  "x",
  "y",
  1,
];
// valid for ajv, outside the RFC language toolgram enforces (formatSources.ts): rejected where a format is asserted
const narrowedValues: JsonValue[] = ["urn:uuid:123e4567-e89b-12d3-a456-426614174000"];
const candidate = fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...exactValues, ...narrowedValues), {
  maxKeys: 3,
});

/** The object in every order of its keys. */
function orders(v: JsonValue): JsonValue[] {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return [v];
  const perms = (xs: [string, JsonValue][]): [string, JsonValue][][] =>
    xs.length <= 1 ? [xs] : xs.flatMap((x, i) => perms([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
  return perms(Object.entries(v)).map((es) => Object.fromEntries(es));
}

describe(`overlapping oneOf whose branches hold a format (seed ${SEED})`, () => {
  it("walks are valid; candidates are judged as ajv judges them (narrowed formats: never accepted when invalid)", () => {
    let compiled = 0;
    fc.assert(
      fc.property(
        fc.array(branch, { minLength: 2, maxLength: 3 }),
        fc.array(candidate, { maxLength: 25 }),
        (bs, cs) => {
          const s = { oneOf: bs };
          let c: ReturnType<typeof compileSchema>;
          try {
            c = compileSchema(s, { propertyOrder: "any" });
          } catch (e) {
            // a branch that requires a key it forbids: no value at all; anything else is a failure
            if (e instanceof ToolgramError && e.code === "UNSATISFIABLE") return;
            throw e;
          }
          compiled++;
          const rnd = seededRandom(SEED);
          for (let i = 0; i < 10; i++) {
            const t = sampleGrammar(c.grammar, rnd);
            if (t !== undefined) expect({ s, t, valid: referee.validText(s, t) }).toEqual({ s, t, valid: true });
          }
          for (const v of cs) {
            const t = canonicalJson(v);
            const valid = referee.validText(s, t);
            // a complement's parts declare keys in their own order: some order of the value's keys is accepted
            const accepted = orders(v).some((o) => c.accepts(canonicalJson(o)));
            const narrowed = Object.values(v as object).some((x) => narrowedValues.includes(x));
            if (narrowed) expect({ s, t, accepted: accepted && !valid }).toEqual({ s, t, accepted: false });
            else expect({ s, t, accepted }).toEqual({ s, t, accepted: valid });
          }
        },
      ),
      { seed: SEED, numRuns: 120 },
    );
    expect(compiled).toBeGreaterThan(90);
  }, 120_000);

  it("the narrowed uuid is outside the enforced format but inside ajv's", () => {
    expect(checkFormat("uuid", narrowedValues[0] as string)).toBe(false);
    expect(ajvRegex("uuid").test(narrowedValues[0] as string)).toBe(true);
  });
});
