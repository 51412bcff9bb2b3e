import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TinyModelFamilyName } from "../../../src/gguf/buildTinyModel.js";
import { startLlamaServer } from "../../../src/llama-cpp/index.js";
import { startServer } from "../../../src/server/index.js";
import { buildTinyFamilyModel } from "../../../src/testing/buildTinyFamilyModel.js";
import { formatFromChatTemplate } from "../../../src/templates/formatFromChatTemplate.js";
import { driveServedTurn } from "./servedTurn.js";

/** One implemented format served by a tiny model: the llama.cpp template that names it and the vocabulary under it. */
interface EveryFormatCase {
  readonly format: string;
  /** llama.cpp's `models/templates/` file, embedded in the tiny model. */
  readonly template: string;
  readonly family: TinyModelFamilyName;
}

const EXPECTED = JSON.parse(
  readFileSync(new URL("../../templates/template-acceptance.expected.json", import.meta.url), "utf8"),
) as { pass: string[] };

/**
 * The vocabulary that holds a format's own tokens where one of the four tiny families has them (Llama 3's
 * `<|python_tag|>` / `<|eom_id|>`, harmony's channels, DeepSeek's fullwidth markers); every other format runs over
 * Qwen3's, where a marker that is no single token is spelled in several (the matcher and llama.cpp's grammar sampler
 * both work on text, so a format does not need its markers to be single tokens).
 */
function familyOf(format: string): TinyModelFamilyName {
  if (format === "openai") return "gptoss";
  if (format.startsWith("deepseek-")) return "deepseek_v3";
  if (format === "llama3-json" || format === "firefunction-v2" || format.startsWith("functionary-")) return "llama3_1";
  return "qwen3";
}

/** The template a family's own models ship, where several templates name one format. */
const PREFERRED = new Set(["Qwen-Qwen3-0.6B.jinja", "llama-cpp-deepseek-r1.jinja"]);

/**
 * Every format formatFromChatTemplate reads from a llama.cpp template that passes the template acceptance check
 * (test/templates/template-acceptance.expected.json), each once, with the first such template (by file name) or the
 * family's own.
 */
export function everyFormatCases(llamaCppDir: string): EveryFormatCase[] {
  const byFormat = new Map<string, EveryFormatCase>();
  for (const template of [...EXPECTED.pass].sort()) {
    const source = readFileSync(join(llamaCppDir, "models", "templates", template), "utf8");
    const format = formatFromChatTemplate(source).format;
    const known = byFormat.get(format);
    if (known === undefined || (PREFERRED.has(template) && !PREFERRED.has(known.template)))
      byFormat.set(format, { format, template, family: familyOf(format) });
  }
  return [...byFormat.values()].sort((a, b) => a.format.localeCompare(b.format));
}

/**
 * The cases a run covers: all of them, or with `stride` > 1 the rows i with (i + seed) % stride === 0, so that
 * consecutive seeds cover every format in turn.
 */
export function rotateCases<T>(rows: readonly T[], seed: number, stride: number): T[] {
  if (stride <= 1) return [...rows];
  return rows.filter((_, i) => (i + seed) % stride === 0);
}

/** A loaded two-core machine can take more than the default 2 s to compile the larger formats' grammars. */
const LIMITS = { maxCompileMs: 30_000 };

/**
 * Serves one format from a tiny model (in process, or in front of the llama-server at `upstream`) and drives it with
 * the official client (driveServedTurn: a valid call, stream = batch, exact replay, cache reuse). Returns the
 * summary's line; assertion failures throw (vitest's `expect`).
 */
async function serveOneFormat(c: EveryFormatCase, model: string, upstream: string | undefined): Promise<string> {
  const server = await startServer({
    ...(upstream === undefined ? { model } : { upstream }),
    port: 0,
    limits: LIMITS,
  });
  try {
    expect(server.state.chat.format).toBe(c.format);
    const t = await driveServedTurn(server, { secondMaxTokens: 16 });
    // a format whose shortest turn is longer than max_tokens (Kimi K3's tags spelled in Qwen3's vocabulary) is closed
    // past it rather than cut: the summary shows the completion tokens
    return `${c.format} (${c.template}, ${c.family} vocabulary): call ${t.calls[0].function.name} (${t.whole.usage?.completion_tokens} completion tokens, max_tokens 96); replay ${t.stored === 0 ? "re-rendered" : "spliced from the store"}; turn 2: ${t.cached} of ${t.second.usage?.prompt_tokens} prompt tokens cached`;
  } finally {
    await server.close();
  }
}

type Mode = "in process" | "upstream";

/**
 * What fails today, by format and mode, with the reason seen (seed 5): each runs as `it.fails`, so a format that
 * starts passing fails its test until it leaves this list. Formats and modes not listed must pass.
 */
const KNOWN_FAILURES: Readonly<Record<string, string>> = {};

/** The test of one format and mode: `it`, or `it.fails` with the known reason in the summary. */
function test(c: EveryFormatCase, mode: Mode, summary: string[]) {
  const known = KNOWN_FAILURES[`${c.format}|${mode}`];
  if (known === undefined) return it;
  summary.push(`${mode}: ${c.format} (${c.template}): known failure: ${known}`);
  return it.fails;
}

/**
 * The tests of {@link serveOneFormat} for `cases`, in process and (when llama-server is built) upstream: one tiny
 * model per case (built once, into the toolgram cache) and one llama-server per model. Each line of the summary says
 * what a format did; a failing format fails its own test, named by format and mode.
 */
export function describeEveryFormat(cases: readonly EveryFormatCase[], binary: string | undefined): void {
  const summary: string[] = [];
  afterAll(() => console.log(`toolgram serve, every format (${cases.length}):\n  ${summary.join("\n  ")}`));
  describe.each(cases)("$format ($template)", (c) => {
    let model: string | undefined;
    async function tiny(): Promise<string | undefined> {
      model ??= (await buildTinyFamilyModel({ family: c.family, llamaCppTemplate: c.template }))?.path;
      return model;
    }
    test(c, "in process", summary)(
      "in process: a valid call, stream = batch, exact replay, cache reuse",
      async () => {
        const path = await tiny();
        if (path === undefined) throw new Error("no llama.cpp source");
        summary.push(`in process: ${await serveOneFormat(c, path, undefined)}`);
      },
      600_000,
    );
    (binary === undefined ? it.skip : test(c, "upstream", summary))(
      "upstream: the same over llama-server",
      async () => {
        const path = await tiny();
        if (path === undefined) throw new Error("no llama.cpp source");
        const llama = await startLlamaServer({ binary: binary!, model: path });
        try {
          summary.push(`upstream: ${await serveOneFormat(c, path, llama.url)}`);
        } finally {
          await llama.stop();
        }
      },
      600_000,
    );
  });
}
