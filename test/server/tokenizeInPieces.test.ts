import { describe, expect, it } from "vitest";
import { pieceEnds, piecesAreExact } from "../../src/server/tokenizeInPieces.js";

/** Where a long prompt is cut, and the check a tokenizer must pass to be cut (real vocabularies: the long tier). */
describe("tokenizeInPieces", () => {
  it("cuts only after a newline that follows a non-space character, before `{`, `<` or a letter", () => {
    const text = `${"x".repeat(10)}\n {a\n\n{b}\n[c}\n{d`;
    expect(pieceEnds(text, 4)).toEqual([text.indexOf("{d")]);
    expect(pieceEnds("short", 8)).toEqual([]);
  });

  it("refuses a tokenizer that adds a token to each text", () => {
    expect(piecesAreExact((text) => [1, ...[...text].map((c) => c.charCodeAt(0))])).toBe(false);
    expect(piecesAreExact((text) => [...text].map((c) => c.charCodeAt(0)))).toBe(true);
  });
});
