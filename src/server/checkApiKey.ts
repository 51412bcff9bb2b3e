import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Whether an `Authorization` header carries `Bearer <key>`. Both sides are hashed first, so the comparison takes the
 * same time whatever the length or content of the guess.
 */
export function checkApiKey(header: string | undefined, key: string): boolean {
  const given = header?.startsWith("Bearer ") ? header.slice(7) : "";
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(key).digest();
  return timingSafeEqual(a, b) && header !== undefined;
}
