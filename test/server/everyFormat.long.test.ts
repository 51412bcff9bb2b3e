import { describe, it } from "vitest";
import { findLlamaServer } from "../../src/llama-cpp/index.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";
import { describeEveryFormat, everyFormatCases, rotateCases } from "../support/server/everyFormatCases.js";

/**
 * Every implemented format served by `toolgram serve`, in process and in front of llama-server, with the official
 * client (test/server/everyFormatCases.ts): a valid required call, stream = batch for one seed, a second turn that
 * continues the first prompt and the first turn's bytes exactly, and reuses the cache. Each format needs its own tiny
 * model and llama-server, so the long tier takes every ROTATION-th format, from `TOOLGRAM_EVERY_FORMAT_SEED`
 * (default 0; seeds 0..ROTATION-1 cover every format); test/server/everyFormat.e2e.test.ts runs them all.
 */
const ROTATION = 8;
const SEED = Number(process.env.TOOLGRAM_EVERY_FORMAT_SEED ?? 0);

const source = await llamaCppSource();
const binary = await findLlamaServer();
if (binary === undefined)
  console.warn(
    "test/server/everyFormat.long.test.ts: llama-server is not built (`npm run llama-server`): upstream skipped",
  );

if (source === undefined)
  describe("every format served", () => {
    it.skip("skipped: llama.cpp's source is not available (node-llama-cpp's bundled llama.cpp or git is missing)", () => {});
  });
else describeEveryFormat(rotateCases(everyFormatCases(source.dir), SEED, ROTATION), binary);
