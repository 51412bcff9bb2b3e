#!/usr/bin/env node
// The `toolgram` executable: it runs the built CLI in dist/ (`npm pack` builds it through `prepack`) and needs no
// TypeScript loader. In a source checkout without a build, `npm run build` makes dist/; the checkout's own scripts
// and tests run src/cli/main.ts through tsx instead.
import { existsSync } from "node:fs";

const built = new URL("../dist/cli/main.js", import.meta.url);
if (!existsSync(built)) {
  process.stderr.write("toolgram: dist/ is missing; in a source checkout run `npm run build` first\n");
  process.exit(1);
}
const { runCli } = await import(built.href);
process.exitCode = await runCli(process.argv.slice(2));
