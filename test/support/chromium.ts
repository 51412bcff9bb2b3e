import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

/** The distribution's Chromium (Debian's `chromium` package), or TOOLGRAM_CHROMIUM; never a downloaded browser. */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.TOOLGRAM_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((p): p is string => !!p && existsSync(p));
}

/** Headless Chromium with no background network traffic (Playwright gives each launch a fresh temporary profile). */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const executablePath = chromiumPath();
  if (!executablePath)
    throw new Error(
      "no Chromium: install the distribution's package (apt-get install chromium) or set TOOLGRAM_CHROMIUM",
    );
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}
