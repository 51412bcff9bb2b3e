/** Same as `toolgram model-tiny`: builds the tiny random-weight Qwen3 GGUF into the cache and prints its path. */
import { modelTiny } from "../src/cli/commands/modelTiny.js";

process.exitCode = await modelTiny(process.argv.slice(2));
