/**
 * `npm run api:check` / `npm run api:update`: the public API report. For every entry point in package.json "exports"
 * (a new entry is picked up without editing this file), API Extractor reads the built declaration file and writes
 * api/<entry>.api.md: every exported name with its printed signature and TSDoc release tag. `--check` fails when the
 * surface differs from the committed report (a name added, removed, or a signature changed); `--update` rewrites the
 * reports, so a change of the public API is a reviewed diff under api/.
 *
 * Both modes build first (`npm run build`): API Extractor reads `dist/*.d.ts`, never the sources.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ExtractorLogLevel } from "@microsoft/api-extractor";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const API_DIR = join(ROOT, "api");

/** One entry point of the package, as package.json "exports" declares it. */
export interface ApiEntry {
  /** The import specifier users write: `toolgram`, `toolgram/llama-cpp`… */
  readonly specifier: string;
  /** The report's file name under api/: `toolgram.api.md`, `toolgram-llama-cpp.api.md`… */
  readonly reportFile: string;
  /** The built declaration file, relative to the package root (`dist/index.d.ts`). */
  readonly dts: string;
  /** The source module it is built from, relative to the package root (`src/index.ts`). */
  readonly source: string;
}

type ExportTarget = string | { types?: string; import?: string; default?: string };

/** The entry points with type declarations in package.json "exports" (`./package.json` and the like are skipped). */
export function apiEntries(): ApiEntry[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, ExportTarget>;
  };
  const entries: ApiEntry[] = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === "string" ? undefined : target.types;
    if (types === undefined) continue;
    const dts = types.replace(/^\.\//, "");
    const rest = subpath.replace(/^\.\/?/, "");
    entries.push({
      specifier: rest === "" ? pkg.name : `${pkg.name}/${rest}`,
      reportFile: `${rest === "" ? pkg.name : `${pkg.name}-${rest.replaceAll("/", "-")}`}.api.md`,
      dts,
      source: dts.replace(/^dist\//, "src/").replace(/\.d\.ts$/, ".ts"),
    });
  }
  return entries;
}

/**
 * The exported names a report lists, each with its meaning: "value" (function, class, const, enum) or "type"
 * (interface, type alias). A class and an enum are values (they are types as well).
 */
export function reportedNames(reportText: string): Map<string, "value" | "type"> {
  const names = new Map<string, "value" | "type">();
  const declaration =
    /^export (?:declare )?(?:abstract )?(function|class|interface|type|const|let|var|enum|namespace) ([A-Za-z_$][\w$]*)/gm;
  for (const m of reportText.matchAll(declaration)) {
    names.set(m[2], m[1] === "interface" || m[1] === "type" ? "type" : "value");
  }
  return names;
}

async function runExtractor(entry: ApiEntry, update: boolean, tempDir: string): Promise<boolean> {
  const { Extractor, ExtractorConfig } = await import("@microsoft/api-extractor");
  const none = "none" as ExtractorLogLevel.None;
  const warning = "warning" as ExtractorLogLevel.Warning;
  const config = ExtractorConfig.prepare({
    configObject: {
      projectFolder: ROOT,
      mainEntryPointFilePath: join(ROOT, entry.dts),
      compiler: { tsconfigFilePath: join(ROOT, "tsconfig.json") },
      apiReport: {
        enabled: true,
        reportFileName: entry.reportFile.replace(/\.api\.md$/, ""),
        reportFolder: API_DIR,
        reportTempFolder: tempDir,
      },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: warning } },
        // a public signature naming a type the entry does not export is written into the report, where review sees it
        extractorMessageReporting: {
          default: { logLevel: warning },
          "ae-forgotten-export": { logLevel: none, addToApiReportFile: true },
          "ae-missing-release-tag": { logLevel: none },
          // members without TSDoc and links to internal names are a documentation matter, not a change of the surface
          "ae-undocumented": { logLevel: none },
          "ae-unresolved-link": { logLevel: none },
        },
        tsdocMessageReporting: { default: { logLevel: none } },
      },
    },
    configObjectFullPath: undefined,
    packageJsonFullPath: join(ROOT, "package.json"),
  });
  const result = Extractor.invoke(config, { localBuild: update, showVerboseMessages: false });
  if (!update && result.apiReportChanged) {
    console.error(`${entry.specifier}: the public API differs from api/${entry.reportFile}.`);
    console.error("  If the change is deliberate, run `npm run api:update` and commit the report.");
  }
  // warnings fail a non-local API Extractor run; here only errors and a changed surface do
  return result.errorCount === 0 && !(result.apiReportChanged && !update);
}

/** Report files left from an entry point that package.json no longer exports. */
function staleReports(entries: readonly ApiEntry[]): string[] {
  const wanted = new Set(entries.map((e) => e.reportFile));
  let present: string[] = [];
  try {
    present = readdirSync(API_DIR).filter((f) => f.endsWith(".api.md"));
  } catch {
    // no api/ yet: nothing stale
  }
  return present.filter((f) => !wanted.has(f));
}

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode !== "--check" && mode !== "--update") {
    console.error("usage: tsx scripts/api-report.ts --check | --update");
    process.exit(2);
  }
  const update = mode === "--update";
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  mkdirSync(API_DIR, { recursive: true });
  const tempDir = join(ROOT, ".cache", "api-extractor");
  mkdirSync(tempDir, { recursive: true });
  const entries = apiEntries();
  let ok = true;
  for (const entry of entries) ok = (await runExtractor(entry, update, tempDir)) && ok;
  for (const file of staleReports(entries)) {
    if (update) rmSync(join(API_DIR, file));
    else {
      console.error(`api/${file} reports an entry point package.json no longer exports; run \`npm run api:update\`.`);
      ok = false;
    }
  }
  if (!ok) process.exit(1);
  console.log(`${update ? "Wrote" : "Checked"} ${entries.length} API reports in api/.`);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
