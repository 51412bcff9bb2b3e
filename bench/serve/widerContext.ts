import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";

/**
 * A copy of a tiny model whose `qwen3.context_length` is `tokens` instead of 8,192, beside the original
 * (`…-ctx<tokens>.gguf`). The GitHub MCP server's 117 tools are ≈ 14,000 tokens of prompt in Qwen3's template: more
 * than the tiny model's trained context, which llama-server and node-llama-cpp both cap a context at. The weights are
 * random, so a longer context changes nothing but what fits.
 */
export function widerContextModel(path: string, tokens: number): string {
  const out = path.replace(/\.gguf$/, `-ctx${tokens}.gguf`);
  if (existsSync(out)) return out;
  const bytes = readFileSync(path);
  // A GGUF key-value: u64 key length, the key, u32 value type (4 = uint32), then the u32 value.
  const key = Buffer.from("qwen3.context_length");
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(key.length));
  const at = bytes.indexOf(Buffer.concat([head, key]));
  const typeAt = at + 8 + key.length;
  if (at < 0 || bytes.readUInt32LE(typeAt) !== 4) throw new Error(`${path}: no uint32 qwen3.context_length`);
  bytes.writeUInt32LE(tokens, typeAt + 4);
  writeFileSync(`${out}.partial`, bytes);
  renameSync(`${out}.partial`, out);
  return out;
}
