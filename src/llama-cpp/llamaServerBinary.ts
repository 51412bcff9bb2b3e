import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { cacheDir } from "../cacheDir.js";

/**
 * Where the llama.cpp source that node-llama-cpp ships lives: a git bundle inside the installed package. Building
 * llama-server from it keeps the server and the in-process binding on the same llama.cpp commit.
 * Returns undefined when node-llama-cpp is not installed.
 */
export function llamaCppBundlePath(): string | undefined {
  const require = createRequire(import.meta.url);
  let entry: string;
  try {
    // The package's exports hide package.json; resolve the entry point and walk up to the package root.
    entry = require.resolve("node-llama-cpp");
  } catch {
    return undefined;
  }
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "llama"))) {
      const bundle = join(dir, "llama", "gitRelease.bundle");
      return existsSync(bundle) ? bundle : undefined;
    }
  }
  return undefined;
}

/** The sha256 of a file, streamed (the bundle is 35 MB). */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Where a llama-server built from `bundle` is cached: keyed on the bundle's hash, so an upgrade rebuilds. */
export async function llamaServerCachePath(bundle: string): Promise<{ key: string; dir: string; binary: string }> {
  const key = (await sha256File(bundle)).slice(0, 16);
  const dir = join(cacheDir(), `llama-server-${key}`);
  return { key, dir, binary: join(dir, "bin", "llama-server") };
}

/**
 * The path of an already-built llama-server for the installed node-llama-cpp, or undefined when none is built
 * (`npm run llama-server` builds it). `$TOOLGRAM_LLAMA_SERVER` overrides the lookup.
 */
export async function findLlamaServer(): Promise<string | undefined> {
  const fromEnv = process.env.TOOLGRAM_LLAMA_SERVER;
  if (fromEnv !== undefined && fromEnv !== "") return existsSync(fromEnv) ? fromEnv : undefined;
  const bundle = llamaCppBundlePath();
  if (bundle === undefined) return undefined;
  const { binary } = await llamaServerCachePath(bundle);
  return existsSync(binary) ? binary : undefined;
}
