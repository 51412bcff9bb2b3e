/**
 * `npx tsx scripts/playgroundScreenshot.ts [out.png]`: the README's picture of the playground (docs/playground.png):
 * the weather example with toolChoice "required", an invalid call in the output box, a few turns sampled
 * under the mask over the Qwen3 vocabulary, and a call being stepped. Needs the distribution's Chromium.
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildPlayground, servePlayground } from "./playground.js";
import { launchChromium } from "../test/support/chromium.js";

const out = resolve(process.argv[2] ?? join(fileURLToPath(new URL("..", import.meta.url)), "docs", "playground.png"));
await buildPlayground();
const { server, url } = await servePlayground(0);
const { browser, close } = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1320, height: 980 }, deviceScaleFactor: 0.75 });
  await page.goto(url);
  await page.waitForFunction(
    () => (globalThis as unknown as { __playground?: { vocabLoaded: boolean } }).__playground?.vocabLoaded,
    null,
    { timeout: 120_000 },
  );
  await page.getByTestId("choice").selectOption("required");
  await page
    .getByTestId("output")
    .fill('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris", "unit": "kelvin"}}\n</tool_call>');
  await page.getByTestId("tok-budget").fill("48");
  for (let i = 0; i < 3; i++) {
    await page.getByTestId("tok-sample").click();
    await page.waitForFunction(
      (n) => (globalThis as unknown as { __playground: { samples: number } }).__playground.samples === n,
      i + 1,
    );
  }
  await page.getByTestId("tok-reset").click();
  await page.getByTestId("tok-forced").click(); // nothing is forced before the call opens: a no-op
  await page.getByTestId("tok-choices").locator(".tok.special", { hasText: "<tool_call>" }).click();
  await page.getByTestId("tok-forced").click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await close();
  server.close();
}
