/**
 * Turns generated token ids into text in whole characters. Byte-level vocabularies have tokens that hold part of a
 * UTF-8 sequence (1,457 of Qwen3's); text is emitted once the pending tokens decode without a trailing U+FFFD, or,
 * so that a genuinely invalid sequence cannot hold text back forever, after a few tokens regardless.
 */
export class TokenTextDecoder {
  private pending: number[] = [];
  private static readonly MAX_PENDING = 8;

  constructor(private readonly detokenize: (tokens: number[]) => string) {}

  push(token: number): string {
    this.pending.push(token);
    const text = this.detokenize(this.pending);
    if (text.endsWith("\uFFFD") && this.pending.length < TokenTextDecoder.MAX_PENDING) return "";
    this.pending = [];
    return text;
  }

  flush(): string {
    const text = this.pending.length === 0 ? "" : this.detokenize(this.pending);
    this.pending = [];
    return text;
  }
}
