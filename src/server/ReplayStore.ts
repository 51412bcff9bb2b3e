import { LRUCache } from "lru-cache";

/** The exact text of an assistant turn and what the client was told about it. */
export interface ReplayedTurn {
  readonly text: string;
  readonly content: string | null;
  readonly calls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }>;
}

/**
 * The fallback of exact replay. A turn whose re-rendering through the template is already its exact text (the
 * usual case: the grammar makes the call's wrapper canonical and `function.arguments` is the substring the model
 * sampled) is not stored at all. Only turns that re-render differently (text before a call with extra blank lines,
 * say) are kept here, by call id, bounded, per server instance: behind a load balancer another instance renders
 * such a turn through the template instead (correct, only a shorter cache prefix).
 */
export class ReplayStore {
  private readonly lru: LRUCache<string, ReplayedTurn>;

  constructor(maxTurns: number) {
    this.lru = new LRUCache({ max: maxTurns });
  }

  get size(): number {
    return this.lru.size;
  }

  remember(turn: ReplayedTurn): void {
    if (turn.calls.length > 0) this.lru.set(turn.calls[0].id, turn);
  }

  /** The exact text of a turn the client sent back unchanged (same content, same calls, same ids), if stored. */
  recall(
    content: string | null,
    calls: ReadonlyArray<{ id: string; function: { name: string; arguments: string } }>,
  ): string | undefined {
    if (calls.length === 0) return undefined;
    const turn = this.lru.get(calls[0].id);
    if (turn === undefined || (turn.content ?? "") !== (content ?? "") || turn.calls.length !== calls.length)
      return undefined;
    const same = turn.calls.every(
      (c, i) =>
        c.id === calls[i].id && c.name === calls[i].function.name && c.arguments === calls[i].function.arguments,
    );
    return same ? turn.text : undefined;
  }
}
