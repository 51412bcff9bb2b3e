import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, relative, sep } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath, launchChromium } from "../support/chromium.js";

/**
 * The documentation site: `npm run docs:build` builds it (TypeDoc's API reference, then VitePress, which fails on a
 * dead link; skipped when TOOLGRAM_DOCS_BUILT=1 says it was just built), it is served from 127.0.0.1, and every page of it, the API reference's included, is opened in headless
 * Chromium: no console error, no uncaught exception, no failed request, no response of 400 or more.
 */
const root = join(import.meta.dirname, "..", "..");
const dist = join(root, "docs", ".vitepress", "dist");
const chromium = chromiumPath();
if (!chromium)
  console.warn("test/docs/site: skipped — no Chromium (apt-get install chromium, or set TOOLGRAM_CHROMIUM)");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".ico": "image/x-icon",
};

/** A static file server over the built site; a path outside it, or missing, is a 404. */
function serveStatic(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    let file = normalize(join(dir, path));
    if (!file.startsWith(dir)) file = join(dir, "404.html");
    else if (existsSync(file) && statSync(file).isDirectory()) file = join(file, "index.html");
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    // assets are content-hashed, as a static host serves them: cached, so each page loads only its own parts
    const cache = extname(file) === ".html" ? "no-cache" : "max-age=3600";
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": cache });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

function htmlPages(dir: string): string[] {
  const pages: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(".html")) pages.push(relative(dir, join(d, e.name)).split(sep).join("/"));
    }
  };
  walk(dir);
  return pages.sort();
}

describe.skipIf(!chromium)("documentation site", () => {
  let server: Server;
  let base: string;

  beforeAll(() => {
    // TOOLGRAM_DOCS_BUILT=1: the site was just built by `npm run docs:build` (as .ci/run may do before this tier)
    if (process.env.TOOLGRAM_DOCS_BUILT === "1") {
      expect(existsSync(join(dist, "index.html")), "TOOLGRAM_DOCS_BUILT=1 but no site in docs/.vitepress/dist").toBe(
        true,
      );
      return;
    }
    const build = spawnSync("npm", ["run", "docs:build"], { cwd: root, encoding: "utf8" });
    expect(build.status, `npm run docs:build failed:\n${build.stdout.slice(-3000)}\n${build.stderr.slice(-3000)}`).toBe(
      0,
    );
  }, 600_000);

  beforeAll(async () => {
    server = await serveStatic(dist);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("has the topic pages and the API reference of every entry point", () => {
    const pages = htmlPages(dist);
    for (const p of ["index.html", "options.html", "formats.html", "llama-cpp.html", "ARCHITECTURE.html"])
      expect(pages).toContain(p);
    expect(pages.filter((p) => p.startsWith("perf/")).length).toBeGreaterThan(1);
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> };
    const entries = Object.keys(pkg.exports).filter((k) => k !== "./package.json");
    // TypeDoc gives each entry point a module page
    expect(pages.filter((p) => p.startsWith("api/modules/")).length).toBe(entries.length);
  });

  it("every link between pages leads to a file of the site (VitePress checks its own pages; this also the API's)", () => {
    const missing: string[] = [];
    for (const p of htmlPages(dist)) {
      const html = readFileSync(join(dist, p), "utf8");
      for (const [, href] of html.matchAll(/<a [^>]*href="([^"#?]+)[^"]*"/g)) {
        if (/^[a-z]+:/.test(href) || href.startsWith("//")) continue; // another site
        const target = href.startsWith("/") ? join(dist, href) : join(dist, p, "..", href);
        const file = href.endsWith("/") ? join(target, "index.html") : target;
        if (!existsSync(file)) missing.push(`${p} → ${href}`);
      }
    }
    expect(missing).toEqual([]);
  });

  /** Opens each page in turn; what went wrong on any of them, as text. */
  async function openEach(pages: string[]): Promise<string[]> {
    const { browser, close } = await launchChromium();
    const problems: string[] = [];
    try {
      const page = await (await browser.newContext()).newPage();
      let current = "";
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(`${current}: console error: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`${current}: uncaught: ${e.message}`));
      page.on("requestfailed", (r) => {
        // leaving a page aborts what it was still fetching (VitePress prefetches the pages it links to)
        if (r.failure()?.errorText !== "net::ERR_ABORTED")
          problems.push(`${current}: request failed: ${r.url()} ${r.failure()?.errorText}`);
      });
      page.on("response", (r) => {
        if (r.status() >= 400) problems.push(`${current}: ${r.status()} for ${r.url()}`);
      });
      for (const p of pages) {
        current = p;
        const response = await page.goto(`${base}/${p}`, { waitUntil: "load", timeout: 120_000 });
        if (response?.status() !== 200) problems.push(`${p}: status ${response?.status()}`);
        // the page rendered its content, not an empty shell
        const title = await page.locator("h1").first().textContent({ timeout: 30_000 });
        if (!title?.trim()) problems.push(`${p}: no title`);
      }
    } finally {
      await close();
    }
    return problems;
  }

  it("opens every page of the guide in Chromium with no console error and no failed request", async () => {
    const pages = htmlPages(dist).filter((p) => !p.startsWith("api/") && p !== "404.html");
    expect(pages.length).toBeGreaterThan(20);
    expect(await openEach(pages)).toEqual([]);
  }, 1_200_000);

  it("opens every page of the API reference in Chromium with no console error and no failed request", async () => {
    const pages = htmlPages(dist).filter((p) => p.startsWith("api/"));
    expect(pages.length).toBeGreaterThan(50);
    expect(await openEach(pages)).toEqual([]);
  }, 1_200_000);
});
