#!/usr/bin/env node
// The `toolgram` executable. A built package runs dist/ directly; a source checkout (no build step) loads the
// TypeScript sources through tsx's loader API, so `npx toolgram` works in development and CI alike.
import { existsSync } from "node:fs";

const built = new URL("../dist/cli/main.js", import.meta.url);
let runCli;
if (existsSync(built)) {
  ({ runCli } = await import(built.href));
} else {
  const { register } = await import("tsx/esm/api");
  register();
  ({ runCli } = await import(new URL("../src/cli/main.ts", import.meta.url).href));
}
process.exitCode = await runCli(process.argv.slice(2));
