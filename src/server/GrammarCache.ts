import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { CompiledGrammar } from "../CompiledGrammar.js";
import { ToolgramError } from "../errors.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import type { JsonObject } from "../json.js";
import { type CompileJob, compileJob, gbnfOf } from "./compileJob.js";
import { adoptParser, type ParserData, type ParserJob } from "./parserJob.js";

/** A compiled grammar, or the error its declaration was refused with (refusals are cached too). */
export type GrammarEntry =
  | { readonly grammar: CompiledGrammar; readonly bytes: number }
  | { readonly error: ToolgramError; readonly bytes: number };

export interface GrammarCacheStats {
  hits: number;
  misses: number;
  compileMs: number;
  /** Strict parsers asked of the parser compiler (one per tool set and format while cached). */
  parserJobs: number;
}

/**
 * Compiled grammars by the sha256 of what they were compiled from (tools, tool policy, schema), least recently used
 * evicted first. Bounded in entries and in bytes, a grammar counted as the length of its GBNF text (proportional to
 * its grammar IR; the matcher's mask table, filled lazily, is bounded by the entry count). Refusals are cached as
 * well, so a client repeating a schema that takes the whole compile budget to refuse pays for it once.
 */
export class GrammarCache {
  private readonly lru: LRUCache<string, GrammarEntry>;
  readonly stats: GrammarCacheStats = { hits: 0, misses: 0, compileMs: 0, parserJobs: 0 };

  /** Compiles waited for, by key: a second request with the same tools waits for the first one's compile. */
  private readonly inFlight = new Map<string, Promise<GrammarEntry>>();
  private readonly compiler: (job: CompileJob) => Promise<CompiledGrammar>;
  private readonly parserCompiler: ((job: ParserJob) => Promise<ParserData>) | undefined;
  /**
   * Tool sets whose strict parser is compiled (or being compiled), by the hash of the tools and format: one array per
   * tool set, which the parser's own caches are keyed by, so later requests with the same tools compile nothing.
   */
  private readonly parsers: LRUCache<string, { tools: readonly JsonObject[]; ready: Promise<void>; done: boolean }>;

  /**
   * @param options.compiler Where compiles run (a {@link CompileWorker}'s `compile`); by default on the calling thread.
   * @param options.parserCompiler Where tool sets' strict parsers are compiled ahead (a {@link CompileWorker}'s
   * `prepareParser`); without one, a turn's parser compiles what it needs when it needs it.
   */
  constructor(options: {
    maxEntries: number;
    maxBytes: number;
    onCompile?: (ms: number, hit: boolean) => void;
    compiler?: (job: CompileJob) => Promise<CompiledGrammar>;
    parserCompiler?: (job: ParserJob) => Promise<ParserData>;
  }) {
    this.compiler = options.compiler ?? (async (job) => compileJob(job));
    this.parserCompiler = options.parserCompiler;
    this.parsers = new LRUCache({ max: options.maxEntries });
    this.lru = new LRUCache<string, GrammarEntry>({
      max: options.maxEntries,
      maxSize: options.maxBytes,
      sizeCalculation: (e) => Math.max(1, e.bytes),
    });
    this.onCompile = options.onCompile;
  }

  private readonly onCompile: ((ms: number, hit: boolean) => void) | undefined;

  /** The hash a compile is cached under: what it was compiled from, in a fixed JSON spelling. */
  static keyOf(input: unknown): string {
    return createHash("sha256").update(JSON.stringify(input)).digest("hex");
  }

  get size(): number {
    return this.lru.size;
  }

  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /**
   * The cached grammar for `key`, or `job`'s, compiled by the cache's compiler and remembered. Rejects with the (cached)
   * ToolgramError of a refusal.
   */
  async get(key: string, job: CompileJob): Promise<CompiledGrammar> {
    let entry = this.lru.get(key);
    if (entry !== undefined) {
      this.stats.hits++;
      this.onCompile?.(0, true);
    } else {
      let compiling = this.inFlight.get(key);
      if (compiling === undefined) {
        compiling = this.compile(key, job).finally(() => this.inFlight.delete(key));
        this.inFlight.set(key, compiling);
      } else {
        this.stats.hits++;
        this.onCompile?.(0, true);
      }
      entry = await compiling;
    }
    if ("error" in entry) throw entry.error;
    return entry.grammar;
  }

  /**
   * The array of `tools` that a strict parser of them in `format` reads without compiling anything on this thread:
   * its one-call grammar's recognizer and its validators are compiled by the parser compiler (the compile worker)
   * and adopted when they come (parserJob.ts). The same array for the same tools and format while it is cached.
   */
  parserTools(tools: readonly JsonObject[], format: FormatDescription): readonly JsonObject[] {
    if (this.parserCompiler === undefined) return tools;
    const key = GrammarCache.keyOf(["parser", tools, format.name]);
    let entry = this.parsers.get(key);
    if (entry === undefined) {
      this.stats.parserJobs++;
      const ready = adoptParser(tools, format, this.parserCompiler({ tools, format }));
      const added = { tools, ready, done: false };
      void ready.then(() => {
        added.done = true;
      });
      entry = added;
      this.parsers.set(key, entry);
    }
    return entry.tools;
  }

  /**
   * Until the parser parts of `parserTools`' array `tools` have come: the promise they resolve; undefined once they
   * came (or for another array), when reading a call compiles nothing on this thread.
   */
  parserPending(tools: readonly JsonObject[]): Promise<void> | undefined {
    for (const entry of this.parsers.values()) if (entry.tools === tools && !entry.done) return entry.ready;
    return undefined;
  }

  /** Resolves once the parser parts of `parserTools`' array `tools` have come (at once for another array). */
  async parserReady(tools: readonly JsonObject[]): Promise<void> {
    for (const entry of this.parsers.values()) if (entry.tools === tools) await entry.ready;
  }

  /** Grammars compiled and not used yet, with their compile time (the log line of a new tool set reads it once). */
  private readonly unused = new WeakMap<CompiledGrammar, number>();

  /** The compile time of `grammar` the first time it is asked for after its compile, undefined after that. */
  takeFirstUse(grammar: CompiledGrammar): { grammar: CompiledGrammar; compileMs: number } | undefined {
    const compileMs = this.unused.get(grammar);
    if (compileMs === undefined) return undefined;
    this.unused.delete(grammar);
    return { grammar, compileMs };
  }

  private async compile(key: string, job: CompileJob): Promise<GrammarEntry> {
    this.stats.misses++;
    const started = performance.now();
    let entry: GrammarEntry;
    try {
      const grammar = await this.compiler(job);
      // its GBNF's size, or its IR's when GBNF cannot hold it (a counted string)
      const bytes = gbnfOf(grammar)?.length ?? JSON.stringify([...grammar.grammar.rules]).length;
      entry = { grammar, bytes: bytes + key.length };
    } catch (e) {
      if (!(e instanceof ToolgramError)) throw e;
      entry = { error: e, bytes: e.message.length + key.length };
    }
    const ms = performance.now() - started;
    this.stats.compileMs += ms;
    this.onCompile?.(ms, false);
    if ("grammar" in entry) this.unused.set(entry.grammar, ms);
    this.lru.set(key, entry);
    return entry;
  }
}
