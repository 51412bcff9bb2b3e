import { UsageError } from "./CliIO.js";

export interface FlagSpec {
  type: "string" | "boolean";
  /** One-letter alias, e.g. "o" for `-o`. */
  short?: string;
}

export interface ParsedFlags {
  values: Record<string, string | boolean>;
  positionals: string[];
}

/**
 * A small argv parser: `--name value`, `--name=value`, `-o value`, boolean `--flag`, `--` ends flags, and a lone
 * `-` is a positional (standard input). Unknown flags and missing values are UsageErrors.
 */
export function parseFlags(argv: readonly string[], spec: Readonly<Record<string, FlagSpec>>): ParsedFlags {
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  const byShort = new Map(
    Object.entries(spec)
      .filter(([, s]) => s.short)
      .map(([n, s]) => [s.short as string, n]),
  );
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    let name: string | undefined;
    let inline: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
    } else {
      name = byShort.get(arg.slice(1));
    }
    const s = name === undefined ? undefined : spec[name];
    if (name === undefined || s === undefined) throw new UsageError(`unknown option ${arg}`);
    if (s.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`option --${name} takes no value`);
      values[name] = true;
    } else {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`option --${name} needs a value`);
      values[name] = v;
    }
  }
  return { values, positionals };
}
