import type { ToolParameters, ValueKinds } from "../units/UnitCodec.js";
import type { ErrorObject } from "ajv";
import { ISSUE_CODES, type IssueCode } from "../issueCodes.js";
import type { ScanEvents } from "../scan/BlockScanner.js";
import type { ToolValidators } from "../toolValidators.js";
import type {
  ParseIssue,
  ParseMode,
  ParsedToolCall,
  StreamEvent,
  ToolCallConstraint,
  ToolCallShape,
} from "../types.js";
import type { UnitCall } from "../units/UnitCodec.js";

/** Why strict mode with tools drops a call that parsed canonically and validates. */
export const GRAMMAR_REFUSED =
  "the call is not one the compiled grammar accepts (a number spelling it narrows, an id it does not allow, or a constraint the schema check alone misses)";

/**
 * Where the calls, issues and stream events of one parse accumulate: the scanner reports call starts, names and
 * argument text here (ScanEvents); the assembler adds each read call (validated against the tools with ajv, and in
 * strict mode checked by the compiled grammar) or drops it with its issue.
 */
export class CallCollector<T extends ToolCallConstraint = ToolCallShape> implements ScanEvents {
  readonly calls: ParsedToolCall<T>[] = [];
  readonly issues: ParseIssue[] = [];
  dropped = 0;
  private events: StreamEvent<T>[] = [];
  private slots = 0;

  constructor(
    readonly mode: ParseMode,
    private readonly validators: ToolValidators | undefined,
    /**
     * Strict mode with tools, every format: the compiled grammar of one call has the last word on each call unit (a
     * block's body, or a list element) that passes the schema check (see strictBlockCheck).
     */
    private readonly grammarCheck: ((unit: string) => boolean) | undefined,
  ) {}

  /** Reasoning text (the block before the turn, see ReasoningSplitter). */
  reasoning(delta: string): void {
    this.events.push({ type: "reasoning", delta });
  }

  /** The events collected since the last call. */
  take(): StreamEvent<T>[] {
    const ev = this.events;
    this.events = [];
    return ev;
  }

  text(delta: string): void {
    this.events.push({ type: "text", delta });
  }

  callStart(): number {
    const index = this.slots++;
    this.events.push({ type: "call_start", index });
    return index;
  }

  callName(index: number, name: string): void {
    this.events.push({ type: "call_name", index, name });
  }

  argumentsDelta(index: number, delta: string): void {
    this.events.push({ type: "arguments_delta", index, delta });
  }

  /** A slot whose call will not come (its text is read again elsewhere). */
  cancel(index: number): void {
    this.events.push({ type: "call_end", index, call: null, raw: "" });
  }

  /** Whether the tool is declared (true when no tools were given: nothing to check against). */
  isDeclared(name: string): boolean {
    return this.validators === undefined || this.validators.has(name);
  }

  /** Whether tools were given. */
  /** How a tagged-parameter format writes each declared parameter (see valueKind); undefined without tools. */
  get valueKinds(): ValueKinds | undefined {
    const v = this.validators;
    return v === undefined ? undefined : (tool, key) => v.valueKind(tool, key);
  }

  /** Each declared tool's parameters (see ToolParameters); undefined without tools. */
  get toolParameters(): ToolParameters | undefined {
    const v = this.validators;
    return v === undefined ? undefined : (tool) => v.parameters(tool);
  }

  get hasTools(): boolean {
    return this.validators !== undefined;
  }

  /**
   * Strict mode with tools: a unit that parsed canonically and validates, but that the compiled grammar does not
   * accept. A call that fails validation is kept, with its precise issue (UNKNOWN_TOOL, INVALID_ARGUMENTS...); one
   * that passes it but not the grammar is spelled in a way the grammar narrows.
   */
  refusedByGrammar(call: UnitCall, unit: string): boolean {
    if (this.grammarCheck === undefined || this.validators === undefined) return false;
    const errs = this.validators.validate(call.name, call.arguments);
    return errs !== undefined && errs.length === 0 && !this.grammarCheck(unit);
  }

  /** Adds a read call (validating it) with its repairs; returns its index in `calls`. */
  addCall(u: UnitCall, raw: string, span: [number, number], repairs: readonly IssueCode[], slot: number): number {
    const index = this.calls.length;
    let valid = true;
    let errors: ErrorObject[] = [];
    if (this.validators) {
      const errs = this.validators.validate(u.name, u.arguments);
      if (errs === undefined) {
        valid = false;
      } else {
        errors = errs;
        valid = errs.length === 0;
      }
    }
    const call = { name: u.name, arguments: u.arguments, raw, span, valid, errors } as ToolCallShape & {
      raw: string;
      span: [number, number];
      valid: boolean;
      errors: ErrorObject[];
      id?: string;
    };
    if (u.id !== undefined) call.id = u.id;
    this.calls.push(call as ParsedToolCall<T>);
    for (const code of repairs) this.issue(code, ISSUE_CODES[code], span, index);
    if (this.validators && !this.validators.has(u.name)) {
      this.issue("UNKNOWN_TOOL", `no tool named ${JSON.stringify(u.name)} was declared`, span, index);
    }
    for (const e of errors) {
      const undeclared = "undeclared" in e && e.undeclared === true;
      this.issues.push({
        code: undeclared ? "UNDECLARED_ARGUMENT" : "INVALID_ARGUMENTS",
        message: undeclared
          ? `arguments${e.instancePath} has the undeclared key ${JSON.stringify((e.params as { additionalProperty?: string }).additionalProperty)}`
          : `arguments${e.instancePath} ${e.message ?? "is invalid"}`,
        span,
        callIndex: index,
        instancePath: e.instancePath,
      });
    }
    if (slot >= 0) this.events.push({ type: "call_end", index: slot, call: call as ParsedToolCall<T>, raw });
    return index;
  }

  /** A call that could not be read: counted, with its issue. */
  drop(code: IssueCode, message: string, span: [number, number], slot: number, raw: string): void {
    this.dropped++;
    this.issue(code, message, span);
    if (slot >= 0) this.events.push({ type: "call_end", index: slot, call: null, raw });
  }

  issue(code: IssueCode, message: string, span?: [number, number], callIndex?: number): void {
    const i: ParseIssue = { code, message };
    if (span) i.span = span;
    if (callIndex !== undefined) i.callIndex = callIndex;
    this.issues.push(i);
  }
}
