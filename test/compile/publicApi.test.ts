import { describe, expect, it } from "vitest";
import * as api from "../../src/index.js";

describe("public barrel", () => {
  it("exports the compile API, errors and helpers by name", () => {
    for (const name of [
      "compileTools",
      "compileSchema",
      "CompiledGrammar",
      "normalizeTools",
      "canonicalJson",
      "quoteJsonString",
      "ToolgramError",
      "InvalidSchemaError",
      "UnsupportedSchemaError",
      "UnsatisfiableSchemaError",
      "LimitExceededError",
      "DEFAULT_LIMITS",
    ]) {
      expect(api, name).toHaveProperty(name);
    }
    expect("default" in api).toBe(false);
  });

  it("compileTools returns a CompiledGrammar", () => {
    expect(api.compileTools([{ name: "a" }])).toBeInstanceOf(api.CompiledGrammar);
  });
});
