/**
 * Property: for random schemas from the supported subset and random instances near them, `accepts()` on the
 * canonical text agrees with ajv. A schema the compiler refuses is skipped (and counted: the run must compile most).
 * Seeded; the seed is printed on failure. `FC_SEED=<n>` replays a run. The quick tier makes 100 runs, the long tier 300.
 */
import { expect, it } from "vitest";
import fc from "fast-check";
import { compileSchema } from "../../src/compile.js";
import { ToolgramError } from "../../src/errors.js";
import { canonicalJson } from "../../src/json.js";
import { Referee } from "../../src/conformance/referee.js";
import { nearValue as near, schemaArb } from "../support/arbitraries.js";
import { tierRuns } from "../support/tier.js";

/** A number of magnitude 10^15 or more, where multipleOf is not enforced (scaled values stay below 10^15). */
const hasLargeNumber = (text: string): boolean =>
  (text.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g) ?? []).some(
    (n) => Math.abs(Number(n)) >= 1e15,
  );
/** A number written with an exponent somewhere outside strings. */
const hasExponent = (text: string): boolean => /[0-9][eE][-+]?[0-9]/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'));

const SEED = Number(process.env.FC_SEED ?? 20261122);
const referee = new Referee();

it("accepts() agrees with ajv on random schemas and instances", () => {
  let compiled = 0;
  let refused = 0;
  let checked = 0;
  fc.assert(
    fc.property(
      schemaArb.chain((s) => fc.tuple(fc.constant(s), fc.array(near(s), { minLength: 1, maxLength: 8 }))),
      ([schema, values]) => {
        let g: ReturnType<typeof compileSchema>;
        try {
          g = compileSchema(schema);
        } catch (e) {
          if (e instanceof ToolgramError) {
            refused++;
            return true;
          }
          throw e;
        }
        compiled++;
        for (const v of values) {
          const text = canonicalJson(v);
          const want = referee.validText(schema, text);
          const got = g.accepts(text);
          checked++;
          if (got && !want) throw new Error(`invalid instance accepted: ${text} for ${JSON.stringify(schema)}`);
          // Documented narrowings (docs/enforced.md): bounded numbers are spelled without exponent (canonicalJson
          // writes 5e-324 with one), and a multipleOf is enforced on values below 10^15 once scaled
          const narrowed =
            (hasExponent(text) && /imum"/.test(JSON.stringify(schema))) ||
            (/"multipleOf"/.test(JSON.stringify(schema)) && hasLargeNumber(text));
          if (!got && want && !narrowed)
            throw new Error(`valid instance rejected: ${text} for ${JSON.stringify(schema)}`);
        }
        return true;
      },
    ),
    { seed: SEED, numRuns: Number(process.env.FC_RUNS ?? tierRuns(100, 300)), verbose: 1 },
  );
  console.log(
    `property: ${compiled} schemas compiled, ${refused} refused, ${checked} instances checked (seed ${SEED})`,
  );
  expect(compiled).toBeGreaterThan(refused);
});
