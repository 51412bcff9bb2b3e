import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/**
 * The entries a browser or worker imports reach no `node:` module (file readers live in `toolgram/node`), so they
 * bundle for the web with no stubs. Packages stay external here: the consumer smoke test bundles them too.
 */
const root = join(import.meta.dirname, "..", "..");

async function nodeImportsReachedFrom(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(root, entry)],
    bundle: true,
    write: false,
    platform: "neutral",
    format: "esm",
    metafile: true,
    logLevel: "silent",
    plugins: [
      {
        name: "packages-external",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) => ({ path: args.path, external: true }));
        },
      },
    ],
  });
  const found: string[] = [];
  for (const [file, input] of Object.entries(result.metafile.inputs))
    for (const imp of input.imports) if (imp.path.startsWith("node:")) found.push(`${file} imports ${imp.path}`);
  return found;
}

describe("isomorphic entries", () => {
  for (const entry of ["src/index.ts", "src/logits/index.ts"])
    it(`${entry} reaches no node: module`, async () => {
      expect(await nodeImportsReachedFrom(entry)).toEqual([]);
    });

  it("the check sees node: imports where they are (toolgram/node)", async () => {
    expect((await nodeImportsReachedFrom("src/node.ts")).length).toBeGreaterThan(0);
  });
});
