import Ajv2020 from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { RequestKind } from "./requestKinds.js";
import type { StreamOutcome } from "./streamOne.js";
import type { ServeToolSet } from "./toolSets.js";

/** A response judged against its tool set and the request kind. */
export interface Verdict {
  /** At least one call was returned. */
  readonly withCall: boolean;
  /** Every returned call names a declared tool, its arguments parse as JSON and validate against its schema. */
  readonly callsValid: boolean;
  /** The call count and names are what the kind asks: ≥ 1 for required/named, all the named tool, ≤ 1 when not parallel. */
  readonly obeysChoice: boolean;
  /** The first problem found, for the report. */
  readonly problem?: string;
}

const ajv = new Ajv2020.default({ strict: false, allErrors: false });
const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: object): ValidateFunction {
  let v = compiled.get(schema);
  if (v === undefined) {
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

function callProblem(set: ServeToolSet, call: { name: string; arguments: string }): string | undefined {
  const tool = set.tools.find((t) => t.function.name === call.name);
  if (tool === undefined) return `undeclared tool ${JSON.stringify(call.name.slice(0, 60))}`;
  let args: unknown;
  try {
    args = JSON.parse(call.arguments);
  } catch {
    return `arguments are not JSON: ${JSON.stringify(call.arguments.slice(-60))}`;
  }
  const validate = validatorOf(tool.function.parameters);
  return validate(args) ? undefined : `arguments fail the schema: ${ajv.errorsText(validate.errors)}`;
}

function choiceProblem(kind: RequestKind, set: ServeToolSet, calls: StreamOutcome["calls"]): string | undefined {
  if (kind === "auto") return undefined;
  if (calls.length === 0) return "no call where one is required";
  if (kind === "named" && calls.some((c) => c.name !== set.named)) return `a call other than ${set.named}`;
  if (kind === "parallel false" && calls.length > 1) return `${calls.length} calls with parallel_tool_calls false`;
  return undefined;
}

/** Judges one outcome; an error answer has no valid calls and obeys nothing. */
export function judge(outcome: StreamOutcome, kind: RequestKind, set: ServeToolSet): Verdict {
  if (outcome.error !== undefined)
    return { withCall: false, callsValid: false, obeysChoice: false, problem: outcome.error };
  const invalid = outcome.calls.map((c) => callProblem(set, c)).find((p) => p !== undefined);
  const disobeys = choiceProblem(kind, set, outcome.calls);
  return {
    withCall: outcome.calls.length > 0,
    callsValid: invalid === undefined,
    obeysChoice: disobeys === undefined,
    ...((invalid ?? disobeys) ? { problem: invalid ?? disobeys } : {}),
  };
}
