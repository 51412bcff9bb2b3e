/**
 * Hostile input: every adversarial schema / tool set either compiles within its limits or is refused with its own
 * error code, inside a child process capped at 1 GB of heap and 20 s per case. Every GBNF that compiles is then
 * loaded by llama.cpp's own parser in a memory-capped child process.
 */
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { HOSTILE_CASES } from "../support/hostile/hostileCases.js";
import { checkGbnfBatchWithLlamaCpp } from "../../src/testing/checkGbnfWithLlamaCpp.js";

const here = dirname(fileURLToPath(import.meta.url));
const CASE_MS = 20_000;

interface Result {
  outcome: string;
  ms: number;
  message: string;
  gbnf?: string;
}

function runFrom(from: number): Promise<{ results: Map<number, Result>; died?: { index: number; reason: string } }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        "--max-old-space-size=1024",
        "--import",
        "tsx",
        join(here, "..", "support", "hostile", "runHostile.ts"),
        String(from),
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const results = new Map<number, Result>();
    let current = -1;
    let buf = "";
    let stderr = "";
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => child.kill("SIGKILL"), CASE_MS);
    };
    arm();
    child.stdout.on("data", (d: Buffer) => {
      buf += d.toString();
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith("START ")) {
          current = Number(line.slice(6));
          arm();
        } else if (line.startsWith("END ")) {
          const sp = line.indexOf(" ", 4);
          results.set(Number(line.slice(4, sp)), JSON.parse(line.slice(sp + 1)) as Result);
        }
      }
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()).slice(-4000));
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const died =
        current >= 0 && !results.has(current)
          ? { index: current, reason: `${signal ?? `exit ${code}`}: ${stderr.slice(-1500)}` }
          : undefined;
      resolve({ results, died });
    });
  });
}

describe("hostile schemas and tool sets", async () => {
  const all = new Map<number, Result>();
  let from = 0;
  while (from < HOSTILE_CASES.length) {
    const { results, died } = await runFrom(from);
    for (const [i, r] of results) all.set(i, r);
    if (!died) break;
    all.set(died.index, { outcome: "DIED", ms: CASE_MS, message: died.reason });
    from = died.index + 1;
  }
  HOSTILE_CASES.forEach((c, i) => {
    const want = Array.isArray(c.expect) ? c.expect : [c.expect];
    it(`${c.name} → ${want.join(" | ")}`, () => {
      const r = all.get(i);
      expect(r, "the case produced no result").toBeDefined();
      expect(r!.outcome, r!.message).toSatisfy((o: string) => want.includes(o));
    });
  });
  it("every GBNF that compiled loads in llama.cpp's parser (capped child process)", async () => {
    const grammars = [...all.values()].filter((r) => r.gbnf).map((r) => r.gbnf!);
    expect(grammars.length).toBeGreaterThan(5);
    const res = await checkGbnfBatchWithLlamaCpp(grammars);
    const bad = res.map((r, i) => ({ r, i })).filter((x) => !x.r.ok);
    expect(bad.map((b) => `${b.i}: ${b.r.error}`)).toEqual([]);
  });
});
