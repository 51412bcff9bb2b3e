import type { CliIO } from "./CliIO.js";

/**
 * The subcommands. Each lives in its own file under `commands/` and is imported only when run, so `compile` does
 * not load llama.cpp bindings or dataset code. To add a command: write `commands/<name>.ts` exporting
 * `(argv: string[], io?: CliIO) => Promise<number>` (the exit code) and add one entry here. Commands throw
 * ToolgramError for bad input and UsageError for bad usage; `runCli` prints them and picks the exit code.
 */

export interface CommandEntry {
  /** One line for `toolgram --help`. */
  summary: string;
  run(argv: string[], io: CliIO): Promise<number>;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  compile: {
    summary: "compile a tool list (or, with --json, a JSON Schema) into GBNF, a regex or a JSON-schema union",
    run: async (argv, io) => (await import("./commands/compile.js")).compileCommand(argv, io),
  },
  parse: {
    summary: "read the tool calls out of a model's reply (JSON on stdout, issues on stderr)",
    run: async (argv, io) => (await import("./commands/parse.js")).parseCommand(argv, io),
  },
  types: {
    summary: "write TypeScript declarations for a tool list (ToolCall union for parseToolCalls<ToolCall>)",
    run: async (argv, io) => (await import("./commands/types.js")).typesCommand(argv, io),
  },
  "validate-dataset": {
    summary: "check a function-calling dataset against its declared tools",
    run: async (argv) => (await import("./commands/validateDataset.js")).validateDatasetCommand(argv),
  },
  convert: {
    summary: "convert a function-calling dataset between row formats",
    run: async (argv) => (await import("./commands/convert.js")).convertCommand(argv),
  },
  serve: {
    summary: "serve an OpenAI-compatible /v1/chat/completions whose tool calls always parse and validate",
    run: async (argv, io) => (await import("./commands/serve.js")).serveCommand(argv, io),
  },
  "model-tiny": {
    summary: "build a tiny random-weight Qwen3 GGUF for grammar tests",
    run: async (argv) => (await import("./commands/modelTiny.js")).modelTiny(argv),
  },
};
