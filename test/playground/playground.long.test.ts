import { mkdirSync } from "node:fs";
import type { Server } from "node:http";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPlayground, servePlayground } from "../../scripts/playground.js";
import { applyMask } from "../../src/logits/index.js";
import { chromiumPath, launchChromium } from "../support/chromium.js";

/**
 * The built playground in a real headless Chromium (the distribution's package, driven by playwright-core): paste a
 * tool set, read the GBNF, type a valid and an invalid call, see a compile error located in the editor, step tokens
 * over the real Qwen3 vocabulary, sample 20 turns under the mask (each checked with ajv by the page), and reopen the
 * permalink. Screenshots go to test-artifacts/playground/.
 */
const chromium = chromiumPath();
if (!chromium)
  console.warn("test/playground: skipped — no Chromium (apt-get install chromium, or set TOOLGRAM_CHROMIUM)");

const artifacts = join(process.cwd(), "test-artifacts", "playground");
const TOOLS = [
  {
    type: "function",
    function: {
      name: "book_table",
      description: "Reserve a table",
      parameters: {
        type: "object",
        properties: {
          restaurant: { type: "string", maxLength: 40 },
          guests: { type: "integer", minimum: 1, maximum: 12 },
          time: { type: "string", enum: ["18:00", "19:30", "21:00"] },
        },
        required: ["restaurant", "guests"],
      },
    },
  },
];
const VALID =
  '<tool_call>\n{"name": "book_table", "arguments": {"restaurant": "Chez Nous", "guests": 4, "time": "19:30"}}\n</tool_call>';
const INVALID =
  '<tool_call>\n{"name": "book_table", "arguments": {"restaurant": "Chez Nous", "guests": 40}}\n</tool_call>';

describe.skipIf(!chromium)("playground in Chromium", () => {
  let server: Server;
  let url: string;
  let browser: Browser;
  let close: () => Promise<void>;
  let page: Page;
  const failedRequests: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    await buildPlayground();
    ({ server, url } = await servePlayground(0));
    ({ browser, close } = await launchChromium());
    page = await browser.newPage({ viewport: { width: 1400, height: 1250 } });
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("response", (r) => r.status() >= 400 && failedRequests.push(`${r.status()} ${r.url()}`));
  });
  afterAll(async () => {
    await close?.();
    server?.close();
  });

  const shot = (name: string) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
  // Playwright's locator.innerText (the rendered text), not the DOM property the lint rule is about
  // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator method
  const text = (testId: string) => page.getByTestId(testId).innerText();
  const probe = () =>
    page.evaluate(
      () =>
        (globalThis as unknown as { __playground: { samples: number; samplesOk: number; vocabLoaded: boolean } })
          .__playground,
    );

  it("loads, compiles a pasted tool set and shows its GBNF", async () => {
    await page.goto(url);
    await page.waitForFunction(
      () => (globalThis as unknown as { __playground?: { ready: boolean } }).__playground?.ready,
    );
    await page.getByTestId("tools").fill(JSON.stringify(TOOLS, null, 2));
    await expect.poll(() => text("compile-result")).toMatch(/✓ 1 tool compiled/);
    const gbnf = await text("grammar");
    expect(gbnf).toMatch(/^root ::= /m);
    expect(gbnf).toContain('\\"book_table\\"');
    await page.getByTestId("tab-regex").click();
    expect(await text("grammar")).toContain("book_table");
    await page.getByTestId("tab-gbnf").click();
    await shot("1-compiled");
  });

  it("accepts a valid call and rejects an invalid one, saying where and why", async () => {
    await page.getByTestId("output").fill(VALID);
    await expect.poll(() => text("verdict-word")).toBe("accepted");
    expect(await text("parse-strict")).toMatch(/book_table[\s\S]*valid/);
    await shot("2-valid-call");

    await page.getByTestId("output").fill(INVALID);
    await expect.poll(() => text("verdict-word")).toBe("rejected");
    const verdict = await text("verdict");
    // "guests": 40 leaves the language at the 0 (1–12 allowed): expected a closing character
    expect(verdict).toMatch(/rejected at line 2, column \d+: "0" is not allowed here; expected/);
    expect(await text("parse-tolerant")).toMatch(/invalid/);
    expect(await text("parse-strict")).toMatch(/no calls|invalid/);
    await shot("3-invalid-call");
  });

  it("shows a compile error with its code and highlights the schema path in the editor", async () => {
    const bad = structuredClone(TOOLS) as unknown as {
      function: { parameters: { properties: Record<string, unknown> } };
    }[];
    bad[0].function.parameters.properties.guests = { type: "integer", minimun: 1 }; // a typo: refused, never ignored
    await page.getByTestId("tools").fill(JSON.stringify(bad, null, 2));
    await expect.poll(() => text("compile-result")).toMatch(/✗/);
    const code = await text("error-code");
    expect(code).toMatch(/^[A-Z_]+$/);
    const path = await text("error-path");
    expect(path).toContain("/guests");
    expect(await text("schema-path-mark")).toContain('"guests"');
    await shot("4-compile-error");
    await page.getByTestId("tools").fill(JSON.stringify(TOOLS, null, 2));
    await expect.poll(() => text("compile-result")).toMatch(/✓/);
  });

  it("steps tokens over the Qwen3 vocabulary", async () => {
    await page.getByTestId("choice").selectOption("required");
    await expect.poll(async () => (await probe()).vocabLoaded, { timeout: 60_000 }).toBe(true);
    await page.getByTestId("tok-reset").click();
    // with a required call the empty output is not complete (with "auto" it would be)
    await expect.poll(() => text("tok-complete")).toBe("in progress");
    const before = Number((await text("tok-allowed")).replace(/,/g, ""));
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(151_936);
    await page.getByTestId("tok-choices").locator(".tok.special", { hasText: "<tool_call>" }).click();
    await expect.poll(() => text("tok-text")).toContain("<tool_call>");
    await page.getByTestId("tok-forced").click();
    await expect
      .poll(() => text("tok-decoded"))
      .toBe('<tool_call>\n{"name": "book_table", "arguments": {"restaurant": "');
    for (let i = 0; i < 3; i++) await page.getByTestId("tok-step").click();
    await expect.poll(async () => await page.getByTestId("tok-text").locator(".tok").count()).toBeGreaterThan(4);
    await shot("5-tokens");
  });

  it("samples 20 turns under the mask, and ajv finds every call valid", async () => {
    for (let i = 0; i < 20; i++) {
      await page.getByTestId("tok-sample").click();
      await expect.poll(async () => (await probe()).samples, { timeout: 30_000 }).toBe(i + 1);
    }
    const p = await probe();
    expect(p.samplesOk).toBe(20);
    expect(await page.getByTestId("sample-verdict").allInnerTexts()).toEqual(new Array(20).fill("valid"));
    expect(await text("samples")).toContain("book_table");
    await shot("6-samples");
  });

  it("applyMask masks a Float16Array (Chromium has one; Node 20 does not)", async () => {
    // applyMask is self-contained: its own source runs in the page
    const out = await page.evaluate((src) => {
      const F16 = (
        globalThis as unknown as { Float16Array?: new (a: number[]) => { length: number; [i: number]: number } }
      ).Float16Array;
      if (!F16) return "no Float16Array";
      const mask = new Function(`return (${src})`)() as (l: unknown, b: Uint32Array) => ArrayLike<number>;
      const logits = new F16([0.5, 1.5, -2, 8, 3, 4]);
      return Array.from(mask(logits, Uint32Array.of(0b001001)), String);
    }, applyMask.toString());
    expect(out).toEqual(["0.5", "-Infinity", "-Infinity", "8", "-Infinity", "-Infinity"]);
  });

  it("reopens the same state from the permalink", async () => {
    await page.getByTestId("output").fill(VALID);
    await expect
      .poll(() => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash))
      .toMatch(/^#s=/);
    await page.waitForTimeout(600); // the hash is written 400 ms after the last edit
    const link = page.url();
    const other = await browser.newPage();
    await other.goto(link);
    await other.waitForFunction(
      () => (globalThis as unknown as { __playground?: { ready: boolean } }).__playground?.ready,
    );
    expect(JSON.parse(await other.getByTestId("tools").inputValue())).toEqual(TOOLS);
    expect(await other.getByTestId("output").inputValue()).toBe(VALID);
    expect(await other.getByTestId("choice").inputValue()).toBe("required");
    await other.close();
    expect(pageErrors).toEqual([]);
    expect(failedRequests).toEqual([]);
  });
});
