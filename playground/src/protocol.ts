import type { ToolCompileOptions } from "../../src/index.js";

/** Messages between the page and the token worker. */
export type ToWorker =
  | { type: "load"; url: string }
  | { type: "grammar"; tools: unknown; options: ToolCompileOptions; required: boolean }
  | { type: "reset" }
  | { type: "accept"; id: number }
  | { type: "step" }
  | { type: "forced" }
  | { type: "sample"; budget: number; runs: number };

export interface TokenView {
  id: number;
  text: string;
  special: boolean;
}

export interface SampleResult {
  text: string;
  tokens: number;
  ok: boolean;
  /** One line per call (`name {...}: valid`) or the reason the sample is not a valid turn. */
  detail: string[];
}

export type FromWorker =
  | { type: "loaded"; ms: number; size: number }
  | { type: "error"; message: string }
  | {
      type: "state";
      tokens: TokenView[];
      text: string;
      allowed: number;
      choices: TokenView[];
      forced: string;
      completed: boolean;
      terminated: boolean;
    }
  | { type: "sampled"; results: SampleResult[] };
