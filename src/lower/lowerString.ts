import type { GExpr } from "../grammar/Grammar.js";
import { lit, seq } from "../grammar/build.js";
import type { StringNode } from "../schema/SchemaNode.js";
import type { LowerState } from "./LowerState.js";
import { lowerStringContent } from "./string/lowerStringContent.js";

/** What a string's content must satisfy: a StringNode's constraints (used for values and for object keys). */
export interface StringContentSpec {
  minLength: number;
  maxLength?: number;
  patterns: string[];
  notPatterns: string[];
  formats: string[];
  notValues?: string[];
}

/** The content (between the quotes) of a string satisfying `spec`. */
export function stringContent(spec: StringContentSpec, path: string, st: LowerState): GExpr {
  return lowerStringContent(spec, {
    strict: st.strict,
    limits: st.limits,
    warnings: st.warnings,
    deadline: st.deadline,
    path,
    rules: st.rules,
    rulePrefix: st.ruleName(path, "str"),
  });
}

/** A JSON string value satisfying the node. */
export function lowerString(node: StringNode, st: LowerState): GExpr {
  return seq(lit('"'), stringContent(node, node.path, st), lit('"'));
}
