import type { Llama, LlamaModel } from "node-llama-cpp";
import { ToolgramError } from "../errors.js";

/** The node-llama-cpp module, imported on first use so that toolgram itself works without it installed. */
export type NodeLlamaCpp = typeof import("node-llama-cpp");

let modulePromise: Promise<NodeLlamaCpp> | undefined;
let llamaPromise: Promise<Llama> | undefined;

/** Imports node-llama-cpp, or throws a ToolgramError saying how to install it. */
export function loadNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  modulePromise ??= import("node-llama-cpp").catch((cause: unknown) => {
    modulePromise = undefined;
    // absent is the usual case (an optional peer); anything else (a broken install, a missing native binding) keeps
    // node-llama-cpp's own reason as the cause
    const absent =
      (cause as { code?: unknown })?.code === "ERR_MODULE_NOT_FOUND" && String(cause).includes("'node-llama-cpp'");
    throw new ToolgramError(
      "INVALID_OPTION",
      absent
        ? "toolgram/llama-cpp needs the optional peer dependency node-llama-cpp 3.21.x, which is not installed; install it with `npm install node-llama-cpp@3.21`."
        : `node-llama-cpp is installed but could not be loaded (${String(cause)}); toolgram/llama-cpp needs node-llama-cpp 3.21.x (\`npm install node-llama-cpp@3.21\`).`,
      "",
      { cause },
    );
  });
  return modulePromise;
}

/**
 * A CPU-only llama.cpp instance from node-llama-cpp's prebuilt binaries (never compiles, never downloads), shared by
 * all callers.
 */
export async function getCpuLlama(): Promise<Llama> {
  llamaPromise ??= loadNodeLlamaCpp().then((m) => m.getLlama({ gpu: false, build: "never" }));
  return llamaPromise;
}

const modelPaths = new WeakMap<LlamaModel, string>();

/** Loads a GGUF model on the CPU. */
export async function loadLlamaModel(modelPath: string): Promise<LlamaModel> {
  const llama = await getCpuLlama();
  const model = await llama.loadModel({ modelPath });
  modelPaths.set(model, modelPath);
  return model;
}

/**
 * The GGUF path a model was loaded from (node-llama-cpp's public `filename` is only the base name); undefined when
 * unknown.
 */
export function modelPathOf(model: LlamaModel): string | undefined {
  return modelPaths.get(model) ?? (model as unknown as { _modelPath?: string })._modelPath;
}
