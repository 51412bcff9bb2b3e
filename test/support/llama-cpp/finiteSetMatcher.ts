import type { TokenMaskMatcher } from "../../../src/llama-cpp/generateWithMask.js";
import { GgufTokenType, type GgufTokenizer } from "../../../src/gguf/ggufTokenizer.js";

/** GPT-2's byte-to-unicode alphabet, inverted: the piece character of each byte back to the byte. */
function byteDecoder(): Map<string, number> {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map = new Map<string, number>();
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    const code = printable.includes(b) ? b : 256 + extra++;
    map.set(String.fromCodePoint(code), b);
  }
  return map;
}

/** Each token's bytes as a latin1 string ("" for padding): the text a token appends to the output. */
export function tokenByteStrings(tokenizer: GgufTokenizer): string[] {
  const decode = byteDecoder();
  return tokenizer.tokens.map((piece, id) => {
    const type = tokenizer.tokenTypes[id];
    if (type === GgufTokenType.unused) return "";
    if (type === GgufTokenType.control || type === GgufTokenType.userDefined)
      return Buffer.from(piece, "utf8").toString("latin1");
    let out = "";
    for (const ch of piece) {
      const b = decode.get(ch);
      if (b === undefined) throw new Error(`piece ${JSON.stringify(piece)} of token ${id} is not byte-level`);
      out += String.fromCharCode(b);
    }
    return out;
  });
}

/**
 * A reference token matcher for tests: the output must become exactly one of `targets` (UTF-8 strings). Allowed next
 * tokens are those whose bytes keep the output a prefix of some target; `endTokens` are allowed once it equals one.
 */
export class FiniteSetMatcher implements TokenMaskMatcher {
  private readonly targets: string[];
  private readonly byFirstByte = new Map<string, number[]>();
  private output = "";

  constructor(
    private readonly tokenBytes: readonly string[],
    targets: readonly string[],
    private readonly endTokens: readonly number[],
  ) {
    this.targets = targets.map((t) => Buffer.from(t, "utf8").toString("latin1"));
    tokenBytes.forEach((bytes, id) => {
      if (bytes === "" || endTokens.includes(id)) return;
      const list = this.byFirstByte.get(bytes[0]) ?? [];
      list.push(id);
      this.byFirstByte.set(bytes[0], list);
    });
  }

  private live(): string[] {
    return this.targets.filter((t) => t.startsWith(this.output));
  }

  allows(token: number): boolean {
    if (this.endTokens.includes(token)) return this.isCompleted();
    const bytes = this.tokenBytes[token] ?? "";
    if (bytes === "") return false;
    return this.live().some((t) => t.startsWith(bytes, this.output.length));
  }

  fillNextTokenBitmask(bits: Uint32Array): void {
    bits.fill(0);
    const set = (id: number): void => {
      bits[id >>> 5] |= 1 << (id & 31);
    };
    for (const target of this.live()) {
      if (target.length === this.output.length) continue;
      for (const id of this.byFirstByte.get(target[this.output.length]) ?? []) {
        if (target.startsWith(this.tokenBytes[id], this.output.length)) set(id);
      }
    }
    if (this.isCompleted()) for (const id of this.endTokens) set(id);
  }

  acceptToken(token: number): boolean {
    if (!this.allows(token) || this.endTokens.includes(token)) return false;
    this.output += this.tokenBytes[token];
    return true;
  }

  isCompleted(): boolean {
    return this.targets.includes(this.output);
  }

  forcedText(): string {
    const rest = this.live().map((t) => t.slice(this.output.length));
    if (rest.length === 0 || rest.some((r) => r === "")) return "";
    let n = 0;
    while (rest.every((r) => n < r.length && r[n] === rest[0][n])) n++;
    // Stop at a UTF-8 boundary so the forced text is valid on its own.
    while (n > 0 && n < rest[0].length && (rest[0].charCodeAt(n) & 0xc0) === 0x80) n--;
    return Buffer.from(rest[0].slice(0, n), "latin1").toString("utf8");
  }

  text(): string {
    return Buffer.from(this.output, "latin1").toString("utf8");
  }
}
