import { randomInt } from "node:crypto";
import { badRequest } from "./ApiError.js";
import type { ChatRequest, RequestMessage } from "./ChatRequest.js";
import { nestsDeeperThan } from "./jsonDepth.js";
import { recordMasks, summarizeMasks } from "./maskTimes.js";
import { planGrammar, type TurnGrammar } from "./planGrammar.js";
import type { ModelTurnOptions } from "../prompt/ModelChat.js";
import { messageTarget, promptMessages } from "./promptMessages.js";
import { requestTurn } from "./requestTurn.js";
import { readChatRequest } from "./readChatRequest.js";
import { finishReasonOf, usageOf, type FinishReason, type Usage } from "./responseShapes.js";
import type { ServerState } from "./ServerState.js";
import type { AssembledTurn, Delta } from "./TurnAssembler.js";
import { TurnReader } from "./TurnReader.js";

/** A request read, its grammar compiled (or found in the cache) and its prompt rendered: ready to generate. */
export interface PreparedTurn {
  readonly request: ChatRequest;
  readonly grammar: TurnGrammar;
  readonly prompt: string;
  /** The turn's format and reasoning (the model's, under the request's `reasoning_mode`). */
  readonly turn: ModelTurnOptions;
  /** The prompt of a later request: `messages` rendered with this request's tools and template options. */
  readonly renderLater: (messages: readonly RequestMessage[]) => string;
}

/** Everything that can be refused before a slot is taken: bad JSON shapes, bad schemas, unknown tools. */
export async function prepareTurn(body: unknown, state: ServerState): Promise<PreparedTurn> {
  if (nestsDeeperThan(body, state.settings.maxDepth)) {
    throw badRequest(`The request body nests deeper than ${state.settings.maxDepth} levels.`, null, "nesting_too_deep");
  }
  const request = readChatRequest(body, state.engine.modelId);
  const renderMessages = (messages: readonly RequestMessage[], enableThinking: boolean | undefined): string =>
    state.chat.render(promptMessages(messages, state.replay, messageTarget(state.chat)), {
      tools: request.tools,
      ...(enableThinking === undefined ? {} : { enableThinking }),
      ...(request.reasoningEffort === undefined ? {} : { reasoningEffort: request.reasoningEffort }),
    });
  const { turn, enableThinking } = requestTurn(state.chat, request, (e) => renderMessages(request.messages, e));
  const needsGbnf = state.engine.kind === "upstream";
  const { limits, onRefusedTool } = state.settings;
  const grammar = await planGrammar(request, state.grammars, limits, turn, onRefusedTool, needsGbnf);
  return {
    request,
    grammar,
    prompt: renderMessages(request.messages, enableThinking),
    turn,
    renderLater: (messages) => renderMessages(messages, enableThinking),
  };
}

export interface TurnOutcome {
  readonly turn: AssembledTurn;
  readonly finishReason: FinishReason;
  readonly usage: Usage;
}

/**
 * Generates the turn, passing each delta on as it is made (streaming) and folding them (the non-streamed answer).
 * A stop sequence in the content aborts the generation. A turn whose calls would not re-render byte for byte goes to
 * the replay store.
 */
export async function runTurn(
  state: ServerState,
  prepared: PreparedTurn,
  signal: AbortSignal,
  onDelta: (d: Delta) => void,
): Promise<TurnOutcome> {
  const { request, grammar } = prepared;
  const stop = new AbortController();
  const reader = new TurnReader(state, prepared, onDelta);
  const generating = state.engine.generate({
    prompt: prepared.prompt,
    format: state.chat.format,
    grammar: grammar.grammar,
    maxTokens: request.maxTokens ?? state.settings.defaultMaxTokens,
    fitBudgetToContext: request.maxTokens === undefined,
    temperature: request.temperature ?? 1,
    topP: request.topP,
    seed: request.seed ?? randomInt(0, 2 ** 31),
    signal: AbortSignal.any([signal, stop.signal]),
    onAdmitted: () => reader.start(),
    onText: (text) =>
      reader.push(text, () => {
        if (!stop.signal.aborted) stop.abort("stop sequence");
      }),
  });
  // a failed generation reads no more of its queued text (the error is the answer's end)
  const result = await generating.catch((e: unknown) => reader.abandon(e));
  const assembler = await reader.end();
  const turn = assembler.turn;
  if (turn.calls.length > 0 && !replaysAsIs(prepared, turn)) {
    state.replay.remember({ text: turn.text, content: turn.content === "" ? null : turn.content, calls: turn.calls });
  }
  const m = state.metrics;
  m.tokens.inc({ kind: "prompt" }, result.promptTokens);
  m.tokens.inc({ kind: "cached" }, result.cachedTokens);
  m.tokens.inc({ kind: "completion" }, result.completionTokens);
  if (grammar.grammar !== undefined && result.completionTokens > 0 && state.engine.kind === "in-process") {
    m.maskSecondsPerToken.observe(result.maskMs / 1000 / result.completionTokens);
    const summary = summarizeMasks(result.maskTimes);
    const firstUse = state.grammars.takeFirstUse(grammar.grammar);
    if (summary !== undefined) recordMasks(m, summary, firstUse, state.settings.log);
  }
  return {
    turn,
    finishReason: finishReasonOf(turn, result.finishReason, assembler.stopped),
    usage: usageOf(result.promptTokens, result.completionTokens, result.cachedTokens),
  };
}

/**
 * Whether the next request re-renders the turn exactly as it was generated, with no store: the conversation so far,
 * the turn as an OpenAI client sends it back (content and calls; clients drop `reasoning_content`) and a result per
 * call, rendered as the next request will be, continues this prompt and the generated text byte for byte. Templates
 * that write a history turn otherwise (drop its reasoning, write another opening than the generation prompt's) fail
 * this, whatever the turn looks like on its own.
 */
function replaysAsIs(prepared: PreparedTurn, turn: AssembledTurn): boolean {
  const sentBack: RequestMessage = {
    role: "assistant",
    content: turn.content === "" ? null : turn.content,
    tool_calls: turn.calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    })),
  };
  const results = turn.calls.map((c): RequestMessage => ({ role: "tool", tool_call_id: c.id, content: "{}" }));
  try {
    return prepared
      .renderLater([...prepared.request.messages, sentBack, ...results])
      .startsWith(prepared.prompt + turn.text);
  } catch {
    // a template that refuses the follow-up (call ids it does not take): the store's copy is the better bet
    return false;
  }
}
