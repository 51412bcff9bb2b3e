import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { processIO, type CliIO } from "../../src/cli/CliIO.js";
import { runCli } from "../../src/cli/main.js";
import { compileTools } from "../../src/compile.js";
import { toolOptionsFromTemplate } from "../../src/templates/toolOptionsFromTemplate.js";
import { tinyQwen3 } from "../support/tinyQwen3.js";
import { vocabularyFromGguf } from "../../src/node.js";

const weatherPath = fileURLToPath(new URL("../../examples/weather.tools.json", import.meta.url));
const weather = JSON.parse(readFileSync(weatherPath, "utf8")) as unknown;

const asFile = (t: string): string => (t.endsWith("\n") ? t : `${t}\n`);

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    readText: (p) => processIO.readText(p),
  };
  return { code: await runCli(args, io), stdout, stderr };
}

describe("toolgram compile --gguf: the format from the model's chat template", () => {
  it("the tiny model carries Qwen3's template: qwen3 with Qwen3's optional <think> block", async () => {
    const { path } = await tinyQwen3();
    const template = (await vocabularyFromGguf(path)).chatTemplate;
    expect(toolOptionsFromTemplate(template as string)).toEqual({
      format: "qwen3",
      reasoning: "optional",
      reasoningMarkers: { open: "<think>\n", close: "\n</think>\n\n" },
    });
    const r = await cli(["compile", weatherPath, "--gguf", path]);
    expect(r.code).toBe(0);
    const want = compileTools(weather, {
      format: "qwen3",
      reasoning: "optional",
      reasoningMarkers: { open: "<think>\n", close: "\n</think>\n\n" },
    });
    expect(r.stdout).toBe(asFile(want.toGbnf()));
    // --format and --reasoning override the template
    expect((await cli(["compile", weatherPath, "--gguf", path, "--format", "llama3-json"])).stdout).toBe(
      asFile(compileTools(weather, { format: "llama3-json" }).toGbnf()),
    );
    expect((await cli(["compile", weatherPath, "--gguf", path, "--reasoning", "none"])).stdout).toBe(
      asFile(compileTools(weather).toGbnf()),
    );
  }, 120_000);
});
