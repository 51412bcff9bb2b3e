/**
 * test/ mirrors src/: the tests of src/x/ live in test/x/ (and of src/x/y/ in test/x/y/), so the tests of a module are
 * found by its path. The tests of src/'s top-level files (compile.ts and what it returns, the foundation files, the
 * barrels) live in test/compile. A few suites have no single source folder; they are the exceptions below, each with
 * its reason. Helpers live in test/support (test/support/<area>/ for one test folder's), so a test folder holds tests.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");

/** The folder for the tests of src/'s top-level files. */
const TOP_LEVEL_FILES = "compile";

/** Folders of test/ that mirror no folder of src/, and why. Everything below them is theirs. */
const EXCEPTIONS: Record<string, string> = {
  support: "helpers shared by the tests and by scripts/ (the tier, vocabularies, harnesses), none of them a test",
  fixtures: "data the tests read: corpora, recorded model outputs, chat templates, peers' results",
  layout: "checks on the tree itself: src/'s layers and import circles, this mirror, the tiers",
  e2e: "generations through the tiny models, through every stage at once (npm run e2e)",
  fuzz: "the differential fuzz campaign (compiler, matcher and parser against each other), a quick run of npm run fuzz",
  hostile: "hostile schemas and tool sets against the whole compiler, in a child process with capped memory",
  regressions: "replays of the cases npm run fuzz wrote, through the whole pipeline",
  bench: "checks of bench/ (outside src/): the peer-library harness the benchmarks rely on",
  playground: "checks of playground/ (outside src/): the browser page and its analysis",
  docs: "checks of docs/ (outside src/): the site builds and opens in a browser, every code block typechecks",
};

/** Folders below a mirror that hold one folder's data rather than tests, and why they stay beside their tests. */
const FIXTURE_FOLDERS: Record<string, string> = {
  "conformance/baseline-jsonschemabench":
    "the per-subset baselines of the JSONSchemaBench ratchet (what each schema's verdict was), read and rewritten by " +
    "the shard tests beside them",
  "parser/types":
    "the declarations `toolgram types` writes for test/fixtures/outputs/tools.json and a use of them, compiled by npm " +
    "run typecheck: the parser tests' typed tool calls",
};

/** Folders with a file below them (git keeps no empty folder, a work tree may). */
function folders(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && files(join(dir, e.name)).length > 0)
    .flatMap((e) => {
      const path = join(dir, e.name);
      return [relative(join(root, "test"), path).split("\\").join("/"), ...folders(path)];
    });
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [relative(join(root, "test"), path).split("\\").join("/")];
  });
}

const isSrcFolder = (f: string) => existsSync(join(root, "src", f)) && statSync(join(root, "src", f)).isDirectory();
const top = (f: string) => f.split("/")[0];
const underException = (f: string) => top(f) in EXCEPTIONS;
const underFixtureFolder = (f: string) => Object.keys(FIXTURE_FOLDERS).some((d) => f === d || f.startsWith(`${d}/`));

describe("test/ mirrors src/", () => {
  it("every folder of test/ is a folder of src/, the top-level files' folder, a listed exception or a fixture folder", () => {
    const stray = folders(join(root, "test")).filter(
      (f) => !isSrcFolder(f) && f !== TOP_LEVEL_FILES && !underException(f) && !underFixtureFolder(f),
    );
    expect(stray).toEqual([]);
  });

  it("lists no exception that mirrors a source folder or no longer exists", () => {
    const names = [...Object.keys(EXCEPTIONS), TOP_LEVEL_FILES, ...Object.keys(FIXTURE_FOLDERS)];
    expect(names.filter((n) => !existsSync(join(root, "test", n)))).toEqual([]);
    expect([...Object.keys(EXCEPTIONS), TOP_LEVEL_FILES].filter(isSrcFolder)).toEqual([]);
  });

  it("keeps helpers in test/support: outside it, a .ts file is a test or a listed fixture folder's", () => {
    const helpers = files(join(root, "test")).filter(
      (f) =>
        f.endsWith(".ts") &&
        !f.endsWith(".test.ts") &&
        top(f) !== "support" &&
        top(f) !== "fixtures" &&
        !underFixtureFolder(f),
    );
    expect(helpers).toEqual([]);
  });

  it("keeps tests out of test/support and test/fixtures", () => {
    const misplaced = files(join(root, "test")).filter(
      (f) => f.endsWith(".test.ts") && (top(f) === "support" || top(f) === "fixtures"),
    );
    expect(misplaced).toEqual([]);
  });
});
