import type { Diagnostic } from "../diagnostic.js";
import { ToolgramError } from "../errors.js";
import { canonicalJson, isJsonObject, type JsonValue } from "../json.js";
import { compileTools } from "../compile.js";
import { normalizeTools } from "../tools/normalizeTools.js";
import { sha256Hex, toolsHash } from "../tools/schemaHash.js";
import { ToolValidators } from "../parser/toolValidators.js";
import type { NormalizedTool } from "../tools/NormalizedTool.js";
import type { Conversation, RowFormat } from "./Conversation.js";
import { DATASET_CODES, type DatasetCode, type DatasetIssue } from "./DatasetIssue.js";
import { readConversation, RowFormatError } from "./readConversation.js";
import { BoundedMap } from "../util/BoundedMap.js";

/**
 * How rows are read and judged: the row format, the severity of drift, the served parallel policy and the template
 * recorded in the receipt. Exported from `toolgram`: {@link ValidateOptions} extends it.
 */
export interface ValidateDatasetOptions {
  /** Force the row format instead of detecting it per row. @defaultValue "auto" */
  input?: RowFormat | "auto";
  /** Severity of FORMAT_DRIFT. @defaultValue "warning" */
  drift?: "error" | "warning";
  /** Whether the served tool choice allows several calls per turn (for NO_PARALLEL_EXAMPLES). @defaultValue true */
  parallel?: boolean;
  /** The chat template the data is meant for (recorded in the receipt). @defaultValue "qwen3" */
  template?: string;
}

/** Counts over the whole dataset ({@link DatasetReport.stats}). Exported from `toolgram`: users read it. */
export interface DatasetStats {
  /** Rows read, including the ones that are not valid JSON. */
  rows: number;
  /** Assistant turns in all rows' conversations. */
  assistantTurns: number;
  /** Assistant turns with at least one call (a ShareGPT function_call turn counts as one). */
  callTurns: number;
  /** Assistant turns with more than one call. */
  parallelTurns: number;
  /** Assistant turns without a call and without an unreadable one (text answers). */
  noCallTurns: number;
  /** Readable calls over all assistant turns. */
  toolCalls: number;
  /** Distinct tool names declared over all rows (set when the last row is read). */
  toolsDeclared: number;
}

/** What checking one row found. Internal: the CLI reads its conversation, whose shape is not part of the API. */
export interface RowOutcome {
  /** The row's 1-based line number (index + 1 for in-memory rows). */
  row: number;
  /** The row's format, absent when it could not be read. */
  format?: RowFormat;
  /** The row's issues. */
  issues: DatasetIssue[];
  /** The row read as a conversation, absent when it could not be read. */
  conversation?: Conversation;
}

/** Compiled tool sets kept at once: datasets whose rows each declare other tools stay flat in memory. */
const MAX_TOOL_SETS = 256;

interface ToolSet {
  tools: NormalizedTool[];
  hash: string;
  validators: ToolValidators;
  compileError?: string;
  readError?: string;
}

/**
 * Checks rows one at a time (memory stays flat: per row, only counters, the set of tool sets seen and a hash per
 * row for duplicate detection are kept), then `finish()` adds the dataset-level warnings.
 */
export class DatasetValidator {
  readonly stats: DatasetStats = {
    rows: 0,
    assistantTurns: 0,
    callTurns: 0,
    parallelTurns: 0,
    noCallTurns: 0,
    toolCalls: 0,
    toolsDeclared: 0,
  };
  readonly counts: Partial<Record<DatasetCode, number>> = {};
  /** Tool sets by the hash of their canonical text; least recently used evicted past MAX_TOOL_SETS. */
  private readonly toolSets = new BoundedMap<string, ToolSet>({ maxEntries: MAX_TOOL_SETS, order: "use" });
  private readonly toolHashes = new Set<string>();
  private readonly declared = new Set<string>();
  private readonly called = new Set<string>();
  private readonly seenRows = new Map<string, number>();
  private readonly opts: Required<ValidateDatasetOptions>;

  constructor(options: ValidateDatasetOptions = {}) {
    this.opts = {
      input: options.input ?? "auto",
      drift: options.drift ?? "warning",
      parallel: options.parallel ?? true,
      template: options.template ?? "qwen3",
    };
  }

  /** Checks one row given as text (a JSONL line); `row` is its 1-based line number. */
  addText(text: string, row: number): RowOutcome {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      this.stats.rows++;
      const out: RowOutcome = { row, issues: [] };
      this.issue(out, "INVALID_JSON", "error", `${DATASET_CODES.INVALID_JSON}: ${(e as Error).message}`, {});
      return out;
    }
    return this.add(value, row);
  }

  /** Checks one parsed row; `row` is its 1-based line number (or index + 1). */
  add(value: unknown, row: number): RowOutcome {
    this.stats.rows++;
    const out: RowOutcome = { row, issues: [] };
    const key = sha256Hex(canonicalJson(value as JsonValue));
    const first = this.seenRows.get(key);
    if (first !== undefined) this.issue(out, "DUPLICATE_ROW", "warning", `the row repeats row ${first}`, {});
    else this.seenRows.set(key, row);

    let conv: Conversation;
    try {
      conv = readConversation(value, this.opts.input === "auto" ? undefined : this.opts.input);
    } catch (e) {
      if (e instanceof RowFormatError) {
        this.issue(out, e.code, "error", e.message, { pointer: e.pointer });
        return out;
      }
      throw e;
    }
    out.format = conv.format;
    out.conversation = conv;
    const ts = this.toolSet(conv.tools);
    if (ts.readError) this.issue(out, "TOOLS_INVALID", "error", ts.readError, { pointer: "/tools" });
    else if (ts.compileError) this.issue(out, "TOOLS_DO_NOT_COMPILE", "error", ts.compileError, { pointer: "/tools" });
    for (const t of ts.tools) this.declared.add(t.name);

    let pending = 0;
    let pendingFrom = -1;
    for (const turn of conv.turns) {
      const at = { messageIndex: turn.index, pointer: turn.pointer };
      if (turn.role === "assistant") {
        this.stats.assistantTurns++;
        if (turn.calls.length === 0 && turn.unreadable.length === 0 && !turn.text.trim())
          this.issue(out, "EMPTY_ASSISTANT_TURN", "error", DATASET_CODES.EMPTY_ASSISTANT_TURN, at);
        if (turn.contentWithCalls)
          this.issue(out, "CONTENT_WITH_TOOL_CALLS", "warning", DATASET_CODES.CONTENT_WITH_TOOL_CALLS, at);
        for (const u of turn.unreadable) this.issue(out, "UNREADABLE_CALL", "error", u, at);
        if (turn.calls.length) {
          if (pending > 0)
            this.issue(
              out,
              "MISSING_RESPONSE",
              "error",
              `${pending} call(s) of message ${pendingFrom} have no response before the next call`,
              at,
            );
          this.stats.callTurns++;
          if (turn.calls.length > 1) this.stats.parallelTurns++;
          pending = turn.calls.length;
          pendingFrom = turn.index;
        } else if (!turn.unreadable.length) {
          this.stats.noCallTurns++;
          if (pending > 0) {
            this.issue(
              out,
              "MISSING_RESPONSE",
              "error",
              `${pending} call(s) of message ${pendingFrom} have no response before the assistant answered`,
              at,
            );
            pending = 0;
          }
        }
        for (const call of turn.calls) this.checkCall(out, ts, call, turn.index);
      } else if (turn.responses.length) {
        for (let i = 0; i < turn.responses.length; i++) {
          if (pending > 0) pending--;
          else this.issue(out, "RESPONSE_WITHOUT_CALL", "error", DATASET_CODES.RESPONSE_WITHOUT_CALL, at);
        }
      } else if (turn.role === "user" && pending > 0) {
        this.issue(
          out,
          "MISSING_RESPONSE",
          "error",
          `${pending} call(s) of message ${pendingFrom} have no response before the next user turn`,
          at,
        );
        pending = 0;
      }
    }
    return out;
  }

  private checkCall(
    out: RowOutcome,
    ts: ToolSet,
    call: Conversation["turns"][number]["calls"][number],
    messageIndex: number,
  ): void {
    this.stats.toolCalls++;
    this.called.add(call.name);
    const at = { messageIndex, pointer: call.pointer };
    if (call.drift.length)
      this.issue(out, "FORMAT_DRIFT", this.opts.drift, `${DATASET_CODES.FORMAT_DRIFT}: ${call.drift.join(", ")}`, at);
    if (ts.readError) return;
    if (!ts.validators.has(call.name)) {
      this.issue(out, "UNDECLARED_TOOL", "error", `call to "${call.name}", which the row's tools do not declare`, at);
      return;
    }
    if (!isJsonObject(call.arguments)) {
      this.issue(out, "INVALID_ARGUMENTS", "error", `the arguments of "${call.name}" are not an object`, at);
      return;
    }
    for (const err of ts.validators.validate(call.name, call.arguments) ?? []) {
      this.issue(
        out,
        "INVALID_ARGUMENTS",
        "error",
        `"${call.name}" arguments${err.instancePath || ""} ${err.message ?? "are invalid"}`,
        { ...at, instancePath: err.instancePath },
      );
    }
  }

  private toolSet(raw: unknown[]): ToolSet {
    let text: string;
    try {
      text = canonicalJson(raw as JsonValue);
    } catch {
      text = String(raw);
    }
    const key = sha256Hex(text);
    let ts = this.toolSets.get(key);
    if (ts) return ts;
    const warnings: Diagnostic[] = [];
    try {
      const tools = normalizeTools(raw, warnings);
      ts = { tools, hash: toolsHash(tools), validators: new ToolValidators(tools) };
      if (tools.length) {
        try {
          compileTools(raw);
        } catch (e) {
          if (!(e instanceof ToolgramError)) throw e;
          ts.compileError = `${e.code}: ${e.message}`;
        }
      }
    } catch (e) {
      if (!(e instanceof ToolgramError)) throw e;
      ts = { tools: [], hash: "", validators: new ToolValidators([]), readError: `${e.code}: ${e.message}` };
    }
    this.toolSets.set(key, ts);
    if (ts.hash) this.toolHashes.add(ts.hash);
    return ts;
  }

  private issue(
    out: RowOutcome,
    code: DatasetCode,
    severity: "error" | "warning",
    message: string,
    at: { messageIndex?: number; pointer?: string; instancePath?: string },
  ): void {
    out.issues.push({ code, severity, message, row: out.row, ...at });
    this.counts[code] = (this.counts[code] ?? 0) + 1;
  }

  /** Dataset-level warnings; call once after the last row. */
  finish(): DatasetIssue[] {
    const s = this.stats;
    s.toolsDeclared = this.declared.size;
    const out: DatasetIssue[] = [];
    const add = (code: DatasetCode, message: string): void => {
      out.push({ code, severity: "warning", message });
      this.counts[code] = (this.counts[code] ?? 0) + 1;
    };
    if (s.callTurns > 0 && s.noCallTurns < 0.05 * s.assistantTurns) {
      add(
        "FEW_NO_CALL_TURNS",
        `${DATASET_CODES.FEW_NO_CALL_TURNS} (${s.noCallTurns} of ${s.assistantTurns} assistant turns)`,
      );
    }
    if (this.opts.parallel && s.callTurns > 0 && s.parallelTurns === 0)
      add("NO_PARALLEL_EXAMPLES", DATASET_CODES.NO_PARALLEL_EXAMPLES);
    const never = [...this.declared].filter((n) => !this.called.has(n)).sort();
    if (never.length)
      add(
        "TOOL_NEVER_CALLED",
        `${never.length} tool(s) declared but never called: ${never.slice(0, 20).join(", ")}${never.length > 20 ? ", …" : ""}`,
      );
    return out;
  }

  /** Hash of the tool declarations: `compileTools(...).schemaHash` when every row declares the same tools. */
  toolsHash(): string {
    const hashes = [...this.toolHashes].sort();
    if (hashes.length <= 1) return hashes[0] ?? "";
    return `multi:${sha256Hex(hashes.join("\n"))}`;
  }

  toolSetCount(): number {
    return this.toolHashes.size;
  }
}
