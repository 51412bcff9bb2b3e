/**
 * toolgram/testing: check grammars in a project's own CI.
 *
 * What this entry offers, and why only that: a project that ships grammars built with toolgram (or written by hand)
 * wants three checks in its own tests —
 * - llama.cpp as a referee of the GBNF: {@link checkGbnfWithLlamaCpp} / {@link checkGbnfBatchWithLlamaCpp} parse it
 *   with llama.cpp's own parser (node-llama-cpp, an optional peer, in a memory-capped child process) and run sample
 *   texts through llama.cpp's grammar engine;
 * - random members of a grammar and their mutations: {@link sampleGrammar}, {@link mutateText}, {@link seededRandom}
 *   (reproducible positive and near-miss negative samples for differential tests);
 * - the conformance judge of a schema: {@link judgeSchema} compiles a schema and checks its acceptor against
 *   instances labelled valid/invalid.
 * toolgram's own conformance corpus runner, its ajv referee and the llama.cpp source locator stay internal: they read
 * toolgram's test data layout, not a user's.
 *
 * The types of the root entry these signatures name (`Grammar`, `SchemaCompileOptions`, `JsonValue`) are imported
 * from `toolgram`, their one home; this entry does not export them again.
 *
 * @packageDocumentation
 */

export {
  checkGbnfWithLlamaCpp,
  checkGbnfBatchWithLlamaCpp,
  type GbnfCheck,
  type GbnfCheckItem,
  type GbnfCheckOptions,
} from "./testing/checkGbnfWithLlamaCpp.js";
export { sampleGrammar, mutateText, type SampleOptions } from "./testing/sampleGrammar.js";
export { seededRandom, type Random } from "./util/seededRandom.js";
export {
  judgeSchema,
  type Verdict,
  type InstanceTest,
  type SchemaJudgement,
  type SchemaCompiler,
} from "./conformance/judgeSchema.js";
