import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ToolgramError } from "../errors.js";
import { processIO, UsageError, type CliIO } from "./CliIO.js";
import { COMMANDS } from "./commandTable.js";
import { formatError } from "./formatError.js";

/**
 * The `toolgram` command line. Exit codes: 0 success, 2 bad input (a ToolgramError: invalid or unsupported
 * declaration, bad option, unreadable file) or bad usage, 1 any other failure.
 */
export async function runCli(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    io.stdout(usage());
    return first === undefined ? 2 : 0;
  }
  if (first === "--version" || first === "-v" || first === "version") {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const cmd = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (!cmd) {
    io.stderr(`toolgram: unknown command ${JSON.stringify(first)}\n\n${usage()}`);
    return 2;
  }
  try {
    return await cmd.run([...rest], io);
  } catch (e) {
    if (e instanceof ToolgramError) {
      io.stderr(`${formatError(e)}\n`);
      return 2;
    }
    if (e instanceof UsageError) {
      io.stderr(`toolgram ${first}: ${e.message}\n`);
      return 2;
    }
    io.stderr(`toolgram: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    return 1;
  }
}

function usage(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return [
    "Usage: toolgram <command> [options]   (toolgram <command> --help for a command's options)",
    "",
    "Commands:",
    ...names.map((n) => `  ${n.padEnd(width)}  ${COMMANDS[n].summary}`),
    "",
    "  --version   print the version",
    "",
  ].join("\n");
}

/** The package version, from the nearest package.json above this file (works from src/ and from a build). */
function version(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "toolgram" && pkg.version) return pkg.version;
    } catch {
      // no package.json here: keep climbing
    }
    const up = dirname(dir);
    if (up === dir) return "unknown";
    dir = up;
  }
}

// run when executed directly (`tsx src/cli/main.ts ...`); bin/toolgram.js calls runCli itself
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runCli(process.argv.slice(2));
}
