/**
 * Child-process runner for the hostile cases: prints `START i` before and `END i <json>` after each case, so that the
 * parent can tell which case killed or hung the process. Run with a heap cap (--max-old-space-size).
 */
import { compileSchema, compileTools } from "../../../src/compile.js";
import { ToolgramError } from "../../../src/errors.js";
import { HOSTILE_CASES } from "./hostileCases.js";

const from = Number(process.argv[2] ?? 0);
for (let i = from; i < HOSTILE_CASES.length; i++) {
  const c = HOSTILE_CASES[i];
  process.stdout.write(`START ${i}\n`);
  const input = c.build();
  const t0 = performance.now();
  let outcome: string;
  let gbnf: string | undefined;
  let message = "";
  try {
    // the deterministic step budget decides (limits.maxCompileSteps), not the clock: the same case gets the same
    // verdict on an idle and on a loaded machine
    const options = { limits: { maxCompileMs: Number.POSITIVE_INFINITY } };
    const g = c.kind === "schema" ? compileSchema(input, options) : compileTools(input, options);
    outcome = "compiles";
    gbnf = g.toGbnf();
  } catch (e) {
    if (e instanceof ToolgramError) {
      outcome = e.code;
      message = e.message.slice(0, 300);
    } else {
      outcome = "CRASH";
      message = String((e as Error)?.stack ?? e).slice(0, 600);
    }
  }
  const ms = performance.now() - t0;
  process.stdout.write(
    `END ${i} ${JSON.stringify({ outcome, ms, message, gbnfBytes: gbnf?.length ?? 0, gbnf: gbnf && gbnf.length < 2_000_000 ? gbnf : undefined })}\n`,
  );
}
