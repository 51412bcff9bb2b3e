import { RegExpParser, type AST } from "@eslint-community/regexpp";
import { InvalidSchemaError, UnsupportedSchemaError } from "../../errors.js";
import { complementRanges, normalizeRanges, unionRanges, type Ranges } from "../../grammar/ranges.js";
import { R_EMPTY, rAlt, rChars, rRep, rSeq, type RNode } from "../../regex/RegexNode.js";

/** ECMAScript `\d`. */
export const DIGIT: Ranges = [0x30, 0x39];
/** ECMAScript `\w` (ASCII only, also with the `u` flag unless `i` is set). */
export const WORD: Ranges = normalizeRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
/** ECMAScript `\s`: WhiteSpace and LineTerminator code points. */
export const SPACE: Ranges = normalizeRanges([
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
]);
/** ECMAScript `.` without the `s` flag: everything but the line terminators. */
export const DOT: Ranges = complementRanges(normalizeRanges([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]));

export interface PatternOptions {
  /** Fold ASCII letters (the `i` flag restricted to ASCII, exact for patterns whose letters are all ASCII). */
  asciiIgnoreCase?: boolean;
}

const propertyCache = new Map<string, Ranges>();

/**
 * The code points matched by a `\p{…}` / `\P{…}` escape, computed by asking the JavaScript engine itself about every
 * scalar value: the engine is also ajv's, so the sets agree exactly, at the price of ~1M tests once per property.
 */
function propertyRanges(raw: string): Ranges {
  let r = propertyCache.get(raw);
  if (r) return r;
  const re = new RegExp(`^${raw}$`, "u");
  const out: number[] = [];
  let runStart = -1;
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp === 0xd800) cp = 0xe000;
    const hit = re.test(String.fromCodePoint(cp));
    if (hit && runStart < 0) runStart = cp;
    if (!hit && runStart >= 0) {
      out.push(runStart, cp - 1);
      runStart = -1;
    }
  }
  if (runStart >= 0) out.push(runStart, 0x10ffff);
  r = normalizeRanges(out);
  propertyCache.set(raw, r);
  return r;
}

function foldAscii(r: Ranges): Ranges {
  const extra: number[] = [];
  for (let i = 0; i < r.length; i += 2) {
    for (let c = Math.max(r[i], 0x41); c <= Math.min(r[i + 1], 0x7a); c++) {
      if (c <= 0x5a) extra.push(c + 32, c + 32);
      else if (c >= 0x61) extra.push(c - 32, c - 32);
    }
  }
  return unionRanges(r, extra);
}

/**
 * Parses an ECMAScript pattern (as ajv compiles it: `new RegExp(source, "u")`) into an RNode. Throws
 * InvalidSchemaError INVALID_PATTERN for a malformed pattern and UnsupportedSchemaError UNSUPPORTED_PATTERN for
 * what is not regular (backreferences) or not supported (word boundaries); lookarounds become `look` nodes,
 * resolved by resolveLookarounds.
 */
export function parsePattern(source: string, path: string, opts: PatternOptions = {}): RNode {
  let ast: AST.Pattern;
  try {
    ast = new RegExpParser({ ecmaVersion: 2024 }).parsePattern(source, 0, source.length, { unicode: true });
  } catch (e) {
    throw new InvalidSchemaError(
      "INVALID_PATTERN",
      `pattern ${JSON.stringify(source)} is not a valid ECMAScript regular expression with the "u" flag: ${(e as Error).message}`,
      path,
    );
  }
  const unsupported = (what: string, node: AST.Node): never => {
    throw new UnsupportedSchemaError(
      "UNSUPPORTED_PATTERN",
      `pattern ${JSON.stringify(source)} uses ${what} (${JSON.stringify(node.raw)} at offset ${node.start}); ` +
        `a grammar can only enforce regular patterns: rewrite it without ${what}, or compile with strict: false to drop it`,
      path,
    );
  };
  const fold = (r: Ranges): Ranges => (opts.asciiIgnoreCase ? foldAscii(r) : r);

  const charSet = (n: AST.CharacterSet): Ranges => {
    if (n.kind === "any") return DOT;
    if (n.kind === "property") return propertyRanges(n.raw);
    const base = n.kind === "digit" ? DIGIT : n.kind === "word" ? WORD : SPACE;
    return n.negate ? complementRanges(base) : base;
  };

  const classRanges = (n: AST.CharacterClass): Ranges => {
    if (n.unicodeSets) return unsupported("a v-mode class", n);
    let acc: number[] = [];
    for (const el of n.elements) {
      switch (el.type) {
        case "Character":
          acc.push(el.value, el.value);
          break;
        case "CharacterClassRange":
          acc.push(el.min.value, el.max.value);
          break;
        case "CharacterSet":
          acc = [...acc, ...charSet(el)];
          break;
        default:
          unsupported("a class element of this kind", el);
      }
    }
    const set = fold(normalizeRanges(acc));
    return n.negate ? complementRanges(set) : set;
  };

  const alternatives = (alts: AST.Alternative[]): RNode => rAlt(...alts.map(alternative));
  function alternative(a: AST.Alternative): RNode {
    return a.elements.length === 0 ? R_EMPTY : rSeq(...a.elements.map(element));
  }
  function element(e: AST.Element): RNode {
    switch (e.type) {
      case "Character":
        return rChars(fold(normalizeRanges([e.value, e.value])));
      case "CharacterClass":
        return rChars(classRanges(e));
      case "CharacterSet":
        return rChars(fold(charSet(e as AST.CharacterSet)));
      case "Group":
        if (e.modifiers) return unsupported("modifiers", e);
        return alternatives(e.alternatives);
      case "CapturingGroup":
        return alternatives(e.alternatives);
      case "Quantifier":
        return rRep(element(e.element), e.min, e.max === Infinity ? null : e.max);
      case "Backreference":
        return unsupported("a backreference, which is not regular", e);
      case "Assertion":
        if (e.kind === "start") return { t: "start" };
        if (e.kind === "end") return { t: "end" };
        if (e.kind === "word") return unsupported("a word boundary", e);
        if (e.kind !== "lookahead" && e.kind !== "lookbehind") return unsupported("an unsupported assertion", e);
        // resolved later into intersections/complements of whole-string languages (resolveLookarounds)
        return {
          t: "look",
          behind: e.kind === "lookbehind",
          negate: e.negate,
          item: alternatives(e.alternatives),
          raw: e.raw,
          offset: e.start,
        };
      default:
        return unsupported("an unsupported construct", e as AST.Node);
    }
  }
  return alternatives(ast.alternatives);
}
