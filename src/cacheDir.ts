import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The folder where toolgram keeps generated artifacts that must never be committed (tiny test models, a locally
 * built llama-server): `$TOOLGRAM_CACHE` if set, otherwise `~/.cache/toolgram`.
 */
export function cacheDir(): string {
  const fromEnv = process.env.TOOLGRAM_CACHE;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  return join(homedir(), ".cache", "toolgram");
}
