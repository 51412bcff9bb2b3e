/**
 * Generates the API reference (TypeDoc HTML from the sources' TSDoc) into docs/public/api/, which the site serves as
 * /api/. The entry points are the package's own: every "exports" entry of package.json that is code, its `dist/`
 * path mapped back to the source it is built from (`./dist/llama-cpp/index.js` → `src/llama-cpp/index.ts`).
 *
 *   npx tsx scripts/docs-api.ts      (npm run docs:build runs it before building the site)
 */
import { readFileSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Application } from "typedoc";

const root = fileURLToPath(new URL("..", import.meta.url));
const out = fileURLToPath(new URL("../docs/public/api", import.meta.url));

type ExportTarget = string | { import?: string; default?: string };

/** The source file of each code entry of package.json's "exports", in their order. */
export function sourceEntryPoints(exportsField: Record<string, ExportTarget>): string[] {
  const entries: string[] = [];
  for (const target of Object.values(exportsField)) {
    const js = typeof target === "string" ? target : (target.import ?? target.default);
    if (js === undefined || !js.endsWith(".js")) continue; // ./package.json and the like
    if (!js.startsWith("./dist/")) throw new Error(`package.json exports ${js}, which is not built from src/`);
    entries.push(`src/${js.slice("./dist/".length, -".js".length)}.ts`);
  }
  return entries;
}

async function main(): Promise<void> {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { exports: Record<string, ExportTarget> };
  const entryPoints = sourceEntryPoints(pkg.exports);
  const app = await Application.bootstrap({
    entryPoints: entryPoints.map((e) => `${root}${e}`),
    tsconfig: `${root}tsconfig.json`,
    name: "toolgram API reference",
    readme: "none",
    excludePrivate: true,
    excludeInternal: true,
    // the site is read offline: no external links the reference would fetch from
    hideGenerator: true,
    favicon: `${root}docs/public/favicon.svg`,
    skipErrorChecking: true,
    logLevel: "Warn",
  });
  const project = await app.convert();
  if (project === undefined) throw new Error("TypeDoc could not convert the entry points");
  rmSync(out, { recursive: true, force: true });
  await app.generateDocs(project, out);
  process.stdout.write(`API reference of ${entryPoints.join(", ")} written to docs/public/api/\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
