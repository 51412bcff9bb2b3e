import { describe, expect, it } from "vitest";
import { serveOptionsFromFlags } from "../../src/cli/commands/serve.js";
import { UsageError } from "../../src/cli/CliIO.js";

describe("toolgram serve: flags to ServeOptions", () => {
  it("--max-compile-ms sets the compile budget; 2000 ms without it", () => {
    expect(serveOptionsFromFlags(["--model", "m.gguf"])?.limits).toEqual({ maxCompileMs: 2000 });
    expect(serveOptionsFromFlags(["--upstream", "http://127.0.0.1:1", "--max-compile-ms", "30000"])?.limits).toEqual({
      maxCompileMs: 30_000,
    });
  });

  it("a budget that is not a positive integer is a usage error naming the flag", () => {
    for (const bad of ["0", "-5", "1.5", "soon"])
      expect(() => serveOptionsFromFlags(["--model", "m.gguf", "--max-compile-ms", bad])).toThrow(
        new UsageError(`--max-compile-ms needs an integer in 1..3600000, got ${bad}`),
      );
  });

  it("--help gives no options (the command prints its usage)", () => {
    expect(serveOptionsFromFlags(["--help"])).toBeUndefined();
  });
});
