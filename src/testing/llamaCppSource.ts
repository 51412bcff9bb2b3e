import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cacheDir } from "../cacheDir.js";
import { llamaCppBundlePath, llamaServerCachePath } from "../llama-cpp/llamaServerBinary.js";

/** A checkout of the llama.cpp source that node-llama-cpp ships, cloned once into the toolgram cache. */
export interface LlamaCppSource {
  /** The checkout's root (holds `models/templates/`, `tests/`, `docs/`, `LICENSE`). */
  dir: string;
  /** The commit the bundle holds (one squashed commit per node-llama-cpp release). */
  commit: string;
  /** llama.cpp's release tag, from node-llama-cpp's `llama/llama.cpp.info.json` ("unknown" if absent). */
  tag: string;
}

/**
 * Clones llama.cpp's source out of node-llama-cpp's `llama/gitRelease.bundle` into the toolgram cache (keyed on the
 * bundle's hash, so an upgrade clones afresh) and returns where it is; later calls reuse the checkout. Returns
 * undefined when node-llama-cpp or git is missing, so tests can skip with a reason instead of failing.
 * The clone goes to a temporary sibling and is renamed into place, so concurrent callers never see half a checkout.
 */
export async function llamaCppSource(): Promise<LlamaCppSource | undefined> {
  const bundle = llamaCppBundlePath();
  if (bundle === undefined) return undefined;
  const { key } = await llamaServerCachePath(bundle);
  const dir = join(cacheDir(), `llama.cpp-src-${key}`);
  if (!existsSync(join(dir, "models", "templates"))) {
    mkdirSync(cacheDir(), { recursive: true });
    const tmp = `${dir}.tmp-${process.pid}`;
    rmSync(tmp, { recursive: true, force: true });
    const r = spawnSync("git", ["clone", "--quiet", bundle, tmp], { stdio: ["ignore", "ignore", "pipe"] });
    if (r.error !== undefined || r.status !== 0) {
      rmSync(tmp, { recursive: true, force: true });
      return undefined;
    }
    try {
      renameSync(tmp, dir);
    } catch {
      // another process renamed its clone first: use that one
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  const head = spawnSync("git", ["-C", dir, "rev-parse", "HEAD"], { encoding: "utf8" });
  const commit = head.status === 0 ? head.stdout.trim() : "unknown";
  let tag = "unknown";
  try {
    const info = JSON.parse(readFileSync(join(bundle, "..", "llama.cpp.info.json"), "utf8")) as { tag?: unknown };
    if (typeof info.tag === "string") tag = info.tag;
  } catch {
    // the tag is provenance only
  }
  return { dir, commit, tag };
}
