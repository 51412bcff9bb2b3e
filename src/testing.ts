/**
 * toolgram/testing: helpers for testing grammars — llama.cpp's own parser and grammar engine as a referee (in a
 * memory-capped child process), random members of a grammar and their mutations, and the conformance harness.
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
export {
  judgeRow,
  readCorpus,
  summarize,
  CONFORMANCE_OPTIONS,
  type CorpusRow,
  type CorpusResult,
  type SchemaOutcome,
} from "./conformance/judgeCorpus.js";
export { Referee } from "./conformance/referee.js";
export { llamaCppSource, type LlamaCppSource } from "./testing/llamaCppSource.js";
