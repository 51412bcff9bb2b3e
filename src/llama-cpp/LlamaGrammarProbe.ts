import type { LlamaGrammarEvaluationState, LlamaModel } from "node-llama-cpp";
import { ToolgramError } from "../errors.js";
import { checkGbnfRepetitions } from "./checkGbnfRepetitions.js";
import { loadNodeLlamaCpp } from "./loadNodeLlamaCpp.js";

/** The native calls behind node-llama-cpp's (internal) `LlamaSampler` grammar helpers. */
interface GrammarBindings {
  canBeNextTokenForGrammarEvaluationState(state: unknown, token: number): boolean;
  acceptGrammarEvaluationStateToken(state: unknown, token: number): void;
}

function bindings(model: LlamaModel): GrammarBindings {
  const sampler = (model.llama as unknown as { _bindings?: { AddonSampler?: Partial<GrammarBindings> } })._bindings
    ?.AddonSampler;
  if (
    typeof sampler?.canBeNextTokenForGrammarEvaluationState !== "function" ||
    typeof sampler.acceptGrammarEvaluationStateToken !== "function"
  ) {
    throw new ToolgramError(
      "INVALID_OPTION",
      "this node-llama-cpp version does not expose llama.cpp's grammar state; use node-llama-cpp 3.21.x.",
    );
  }
  return sampler as GrammarBindings;
}

/**
 * llama.cpp's own grammar engine, stepped by hand: asks whether one token may come next (the grammar sampler applied
 * to that single candidate) and feeds tokens to it. Used to compare toolgram's masks with llama.cpp's token by token,
 * and to start a grammar after a trigger token (lazy grammars). Relies on native calls that node-llama-cpp 3.21 uses
 * internally (`LlamaSampler._canBeNextTokenForGrammarEvaluationState`).
 */
export class LlamaGrammarProbe {
  private constructor(
    private readonly native: GrammarBindings,
    /** The state to pass as `grammarEvaluationState` to node-llama-cpp's `sequence.evaluate`. */
    readonly state: LlamaGrammarEvaluationState,
  ) {}

  static async create(model: LlamaModel, gbnf: string): Promise<LlamaGrammarProbe> {
    const { LlamaGrammarEvaluationState: State } = await loadNodeLlamaCpp();
    checkGbnfRepetitions(gbnf);
    let grammar;
    try {
      grammar = await model.llama.createGrammar({ grammar: gbnf });
    } catch (cause) {
      throw new ToolgramError(
        "INVALID_INPUT",
        "llama.cpp could not parse the GBNF grammar (its reason is printed on stderr).",
        "",
        { cause },
      );
    }
    return new LlamaGrammarProbe(bindings(model), new State({ model, grammar }));
  }

  private get nativeState(): unknown {
    return (this.state as unknown as { _state: unknown })._state;
  }

  /** llama.cpp's grammar gives `token` a finite logit here (for an end-of-generation token: the grammar is complete). */
  allows(token: number): boolean {
    return this.native.canBeNextTokenForGrammarEvaluationState(this.nativeState, token);
  }

  /** Advances the grammar by `token`; throws (llama.cpp's error) when the grammar does not allow it. */
  accept(token: number): void {
    this.native.acceptGrammarEvaluationStateToken(this.nativeState, token);
  }
}
