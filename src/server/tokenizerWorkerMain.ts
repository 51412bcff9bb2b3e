import { parentPort, workerData } from "node:worker_threads";
import { getCpuLlama } from "../llama-cpp/loadNodeLlamaCpp.js";

/**
 * A tokenizer worker's entry: the model's vocabulary alone (node-llama-cpp's `vocabOnly`: no weights), loaded here to
 * tokenize long prompts off the event loop. Answers `{ id, text }` with `{ id, tokens }` (an Int32Array, transferred)
 * or `{ id, error }`; messages that arrive while the vocabulary loads wait in the port.
 */
const { modelPath } = workerData as { modelPath: string };
const model = await (await getCpuLlama()).loadModel({ modelPath, vocabOnly: true });
parentPort?.on("message", (m: { id: number; text: string }) => {
  try {
    const tokens = Int32Array.from(model.tokenize(m.text, true));
    parentPort?.postMessage({ id: m.id, tokens }, [tokens.buffer]);
  } catch (e) {
    parentPort?.postMessage({ id: m.id, error: e instanceof Error ? e.message : String(e) });
  }
});
