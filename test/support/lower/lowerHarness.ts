import Ajv2020 from "ajv/dist/2020.js";
import { createAcceptor, type Acceptor } from "../../../src/grammar/accepts.js";
import type { GExpr } from "../../../src/grammar/Grammar.js";
import { validateGrammar } from "../../../src/grammar/validateGrammar.js";
import { createLowerContext, lowerSchema, type LowerContext } from "../../../src/lower/lowerSchema.js";
import { resolveSchemaOptions, type SchemaCompileOptions } from "../../../src/options.js";
import type { SchemaIR, SchemaNode } from "../../../src/schema/SchemaNode.js";

export const ajv = new Ajv2020.default({ strict: false, allowMatchingProperties: true });

export interface Lowered {
  acceptor: Acceptor;
  ctx: LowerContext;
  root: GExpr;
}

/** Lowers a hand-built node (with optional defs) into a one-root grammar and its reference acceptor. */
export function lowerNode(
  root: SchemaNode,
  opts: SchemaCompileOptions = {},
  defs = new Map<string, SchemaNode>(),
): Lowered {
  const ir: SchemaIR = { root, defs };
  const ctx = createLowerContext(resolveSchemaOptions(opts, { additionalProperties: "spec" }), "t", []);
  const expr = lowerSchema(ir, ctx);
  const rules = new Map<string, GExpr>([["root", expr], ...ctx.rules]);
  validateGrammar({ rules, root: "root" });
  return { acceptor: createAcceptor({ rules, root: "root" }), ctx, root: expr };
}
