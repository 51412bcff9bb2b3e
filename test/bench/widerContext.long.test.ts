import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { widerContextModel } from "../../bench/serve/widerContext.js";
import { readGguf } from "../../src/gguf/readGguf.js";
import { tinyQwen3 } from "../support/tinyQwen3.js";

/** bench:serve gives the tiny model a wider trained context, so that the GitHub server's 117 tools fit a prompt. */
describe("bench:serve widerContextModel", () => {
  it("rewrites the tiny model's trained context and nothing else", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgram-ctx-"));
    try {
      const path = join(dir, "tiny.gguf");
      copyFileSync((await tinyQwen3()).path, path);
      const wider = widerContextModel(path, 32_768);
      const [before, after] = await Promise.all([readGguf(path), readGguf(wider)]);
      expect(before.metadata.get("qwen3.context_length")).toEqual({ type: "uint32", value: 8192 });
      expect(after.metadata.get("qwen3.context_length")).toEqual({ type: "uint32", value: 32_768 });
      expect(after.metadata.size).toBe(before.metadata.size);
      expect(after.dataOffset).toBe(before.dataOffset);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
