import Ajv2020 from "ajv/dist/2020.js";
import { createAcceptor, type Acceptor } from "../../../src/grammar/accepts.js";
import type { GExpr } from "../../../src/grammar/Grammar.js";
import { lowerNumber } from "../../../src/lower/number/lowerNumber.js";
import { ref } from "../../../src/grammar/build.js";
import type { NumberNode } from "../../../src/schema/SchemaNode.js";

export const ajv = new Ajv2020.default({ strict: false });

/** An acceptor for one number node, lowered on its own. */
export function numberAcceptor(node: NumberNode, strict = true): Acceptor {
  const rules = new Map<string, GExpr>();
  const root = lowerNumber(node, {
    strict,
    warnings: [],
    ruleBase: "n",
    addRule: (name, e) => {
      rules.set(name, e);
      return ref(name);
    },
  });
  const all = new Map<string, GExpr>([["root", root], ...rules]);
  return createAcceptor({ rules: all, root: "root" });
}

/** The JSON Schema a number node stands for, for ajv. */
export function numberSchema(node: NumberNode): Record<string, unknown> {
  const s: Record<string, unknown> = { type: node.integer ? "integer" : "number" };
  if (node.minimum) s[node.minimum.exclusive ? "exclusiveMinimum" : "minimum"] = node.minimum.value;
  if (node.maximum) s[node.maximum.exclusive ? "exclusiveMaximum" : "maximum"] = node.maximum.value;
  if (node.multipleOf) s.allOf = node.multipleOf.map((m) => ({ multipleOf: m }));
  return s;
}
