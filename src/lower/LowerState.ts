import type { Diagnostic } from "../diagnostic.js";
import type { GExpr } from "../grammar/Grammar.js";
import type { Deadline } from "../Deadline.js";
import type { Limits, PropertyOrder } from "../options.js";
import type { SchemaNode } from "../schema/SchemaNode.js";
import type { JsonStyle } from "./JsonStyle.js";

/** What the per-kind lowerings share during one `lowerSchema` call. */
export interface LowerState {
  strict: boolean;
  limits: Limits;
  /** How declared properties may be ordered (`SchemaCompileOptions.propertyOrder`). */
  propertyOrder: PropertyOrder;
  warnings: Diagnostic[];
  /** The compile's time budget. */
  deadline: Deadline;
  style: JsonStyle;
  defs: Map<string, SchemaNode>;
  /** The context's rule map (string lowering adds its automaton rules there). */
  rules: Map<string, GExpr>;
  /** A rule name derived from `path` (+ suffix) that is not taken yet (nothing is registered). */
  ruleName(path: string, suffix: string): string;
  /** Lowers a nested node (recursion goes through `ref` rules). */
  lower(node: SchemaNode): GExpr;
  /** Registers a rule under a unique name derived from `path` (+ suffix) and returns a reference to it. */
  addRule(path: string, suffix: string, e: GExpr): GExpr;
  /** `e` itself when small, else a reference to a new rule: keeps shared sub-expressions from being printed twice. */
  share(path: string, suffix: string, e: GExpr): GExpr;
  /** Throws (strict) or records a warning (non-strict) for a constraint the grammar cannot enforce exactly. */
  relax(keyword: string, path: string, why: string): void;
}
