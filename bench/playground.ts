/**
 * The playground's cost in a real browser: bundle sizes (raw and gzip), time to interactive (navigation start to the
 * first compile rendered, the Qwen3 vocabulary apart) and the vocabulary's load time in the worker (fetch, parse,
 * `Vocabulary.fromTokenizerJson`), in headless Chromium from the distribution. Run alone with
 * `npx tsx bench/playground.ts`; `npm run bench` includes it. Skipped where no Chromium is installed.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { buildPlayground, distDir, servePlayground } from "../scripts/playground.js";
import { chromiumPath, launchChromium } from "../test/support/chromium.js";

interface Probe {
  ready: boolean;
  readyMs: number;
  compileMs: number;
  vocabMs: number;
  vocabLoaded: boolean;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runPlaygroundBench({ quick }: { quick: boolean }): Promise<string> {
  if (!chromiumPath()) return "skipped: no Chromium (apt-get install chromium, or set TOOLGRAM_CHROMIUM)";
  const { files } = await buildPlayground();
  const rows = ["| file | bytes | gzip bytes |", "| --- | --- | --- |"];
  let codeRaw = 0;
  let codeGzip = 0;
  for (const f of files) {
    const gz = gzipSync(readFileSync(join(distDir, f.name))).length;
    if (f.name !== "qwen3-tokenizer.json") {
      codeRaw += f.bytes;
      codeGzip += gz;
    }
    rows.push(`| ${f.name} | ${f.bytes.toLocaleString("en")} | ${gz.toLocaleString("en")} |`);
  }
  rows.push(
    `| page and code (all but the vocabulary) | ${codeRaw.toLocaleString("en")} | ${codeGzip.toLocaleString("en")} |`,
  );

  const { server, url } = await servePlayground(0);
  const { browser, close } = await launchChromium();
  const runs = quick ? 1 : 5;
  const ready: number[] = [];
  const compile: number[] = [];
  const vocab: number[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext(); // a cold cache each run
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction(
        () => (globalThis as unknown as { __playground?: Probe }).__playground?.vocabLoaded,
        null,
        { timeout: 120_000 },
      );
      const p = await page.evaluate(() => (globalThis as unknown as { __playground: Probe }).__playground);
      ready.push(p.readyMs);
      compile.push(p.compileMs);
      vocab.push(p.vocabMs);
      await context.close();
    }
  } finally {
    await close();
    server.close();
  }
  const timing = [
    "",
    `| measure (median of ${runs} cold loads, Chromium headless, served from 127.0.0.1) | ms |`,
    "| --- | --- |",
    `| time to interactive (navigation → tools compiled and shown; vocabulary apart) | ${median(ready).toFixed(0)} |`,
    `| of which: compiling the example tools | ${median(compile).toFixed(0)} |`,
    `| Qwen3 vocabulary in the worker (fetch, JSON.parse, Vocabulary.fromTokenizerJson) | ${median(vocab).toFixed(0)} |`,
  ];
  return [...rows, ...timing].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  console.log(await runPlaygroundBench({ quick: process.argv.includes("--quick") }));
