import type { Diagnostic } from "./diagnostic.js";
import type { GExpr } from "./grammar/Grammar.js";
import { canonicalJson, type JsonObject } from "./json.js";
import { BoundedMap } from "./util/BoundedMap.js";

/**
 * One tool's lowered arguments: its rules and its warnings. The rules are named after the tool that first compiled
 * them (every name starts with `prefix`); a compile that reuses them renames them after its own tool.
 */
export interface ToolFragment {
  rules: ReadonlyMap<string, GExpr>;
  /** The prefix every rule name was built from. */
  prefix: string;
  /** The rule of the arguments' value. */
  argsRule: string;
  /** Warnings of the lowering, schemaPath relative to the parameters. */
  warnings: readonly Diagnostic[];
  /** IR nodes of its rules (`exprSize` summed): what it adds to a tool set's size check, under any names. */
  size: number;
}

/**
 * The parameters' part of a fragment's key: their JSON text, exact (equal texts ⇔ equal values, keys in order). The
 * engine's `JSON.stringify` writes it several times faster than `canonicalJson` (a compile keys every tool), but
 * writes -0 as `0`, which a `const` or `enum` spells apart (`-0`): when the declarations may hold a -0
 * (`mayHoldNegativeZero`, told by their copy), a schema holding one is keyed by its canonical text instead (the two
 * never meet: an object's canonical text has `": "` outside strings, `JSON.stringify`'s never).
 */
export function parametersKey(parameters: JsonObject, mayHoldNegativeZero = true): string {
  if (!mayHoldNegativeZero) return JSON.stringify(parameters);
  negativeZero = false;
  const text = JSON.stringify(parameters, noteNegativeZero);
  return negativeZero ? canonicalJson(parameters) : text;
}

let negativeZero = false;

function noteNegativeZero(_key: string, v: unknown): unknown {
  if (v === 0 && Object.is(v, -0)) negativeZero = true;
  return v;
}

/** Fragments kept per process; the least recently used go first. */
const CAPACITY = 4096;

/**
 * Lowered tool arguments per (options, wire format, parameters' JSON text: `parametersKey`), shared by every compile in the process:
 * a request whose tool list differs from an earlier one by one tool lowers one tool, and a tool set that declares
 * the same schema under several names (several instances of one MCP server) lowers it once. Grammar expressions are
 * never mutated, so a fragment is shared as is; only successful lowerings are kept (an error is raised again).
 */
export class ToolFragmentCache {
  private readonly entries = new BoundedMap<string, ToolFragment>({ maxEntries: CAPACITY, order: "use" });

  get(key: string): ToolFragment | undefined {
    return this.entries.get(key);
  }

  set(key: string, fragment: ToolFragment): void {
    this.entries.set(key, fragment);
  }

  clear(): void {
    this.entries.clear();
  }

  /** The fragments kept, least recently used first. */
  values(): IterableIterator<ToolFragment> {
    return this.entries.values();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The process's cache (`compileTools` reads and fills it). */
export const toolFragments = new ToolFragmentCache();
