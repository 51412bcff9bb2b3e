import { buildTinyModel, tinyModelPath } from "../../gguf/buildTinyModel.js";

const USAGE = `Usage: toolgram model-tiny [--seed N] [--out PATH]

Builds a tiny random-weight Qwen3-architecture GGUF (about 25 MB) with the real Qwen3 vocabulary and chat template,
deterministically from the seed. Its output is meaningless; it exists to exercise grammars and token masks in llama.cpp.

  --seed N     weight seed, 0..4294967295 (default 0)
  --out PATH   output file (default: <cache>/tiny-qwen3-<seed>.gguf, cache = $TOOLGRAM_CACHE or ~/.cache/toolgram)
`;

/** `toolgram model-tiny`: prints the model's path, size and sha256; returns the exit code. */
export async function modelTiny(argv: string[]): Promise<number> {
  let seed = 0;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] =
      arg.startsWith("--") && arg.includes("=")
        ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
        : [arg, undefined];
    const value = (): string | undefined => inline ?? argv[++i];
    if (flag === "--help" || flag === "-h") {
      process.stdout.write(USAGE);
      return 0;
    } else if (flag === "--seed") {
      const text = value();
      if (text === undefined || !/^\d+$/.test(text) || Number(text) > 0xffffffff) {
        process.stderr.write(`--seed needs an integer in 0..4294967295, got ${text ?? "nothing"}.\n`);
        return 2;
      }
      seed = Number(text);
    } else if (flag === "--out") {
      out = value();
      if (out === undefined || out === "") {
        process.stderr.write("--out needs a file path.\n");
        return 2;
      }
    } else {
      process.stderr.write(`Unknown argument ${arg}.\n${USAGE}`);
      return 2;
    }
  }
  const started = performance.now();
  const model = await buildTinyModel({ seed, outPath: out ?? tinyModelPath(seed) });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(`built in ${seconds} s: ${(model.sizeBytes / 1e6).toFixed(1)} MB, sha256 ${model.sha256}\n`);
  process.stdout.write(`${model.path}\n`);
  return 0;
}
