import { repetitionSuffix } from "./repetitionSuffix.js";
import { countedRefusal } from "./countedRefusal.js";
import { LimitExceededError, ToolgramError } from "../errors.js";
import { MAX_CODE_POINT, type GExpr, type Grammar } from "../grammar/Grammar.js";
import { reachableRules, recursiveRules } from "../grammar/analysis/ruleGraph.js";
import { validateGrammar } from "../grammar/validateGrammar.js";
import type { Deadline } from "../Deadline.js";

const STAGE = "printing the regex";

/** Largest regex source produced; inlining every rule can grow a shared sub-grammar exponentially. */
export const REGEX_MAX_LENGTH = 4_000_000;

/** Precedence of a printed piece: what it can be embedded in without a group. */
const ALT = 0;
const SEQ = 1;
const ATOM = 2;

interface Piece {
  src: string;
  prec: number;
}

const SYNTAX = new Set([..."^$\\.*+?()[]{}|/"]);

function escapeCp(cp: number): string {
  if (cp >= 0x20 && cp < 0x7f) {
    const ch = String.fromCodePoint(cp);
    return SYNTAX.has(ch) ? `\\${ch}` : ch;
  }
  return `\\u{${cp.toString(16).toUpperCase()}}`;
}

function classCp(cp: number): string {
  if (cp >= 0x20 && cp < 0x7f) {
    const ch = String.fromCodePoint(cp);
    return "\\]-^[".includes(ch) ? `\\${ch}` : ch;
  }
  return `\\u{${cp.toString(16).toUpperCase()}}`;
}

function classBody(r: readonly number[]): string {
  let s = "";
  for (let i = 0; i < r.length; i += 2) {
    s += classCp(r[i]);
    if (r[i + 1] === r[i] + 1) s += classCp(r[i + 1]);
    else if (r[i + 1] > r[i]) s += `-${classCp(r[i + 1])}`;
  }
  return s;
}

/** A class as regex; negated when shorter (the complement over 0..0x10FFFF also excludes surrogates, like the IR). */
function charClass(r: readonly number[]): string {
  if (r.length === 2 && r[0] === r[1]) return escapeCp(r[0]);
  const neg: number[] = [];
  let next = 0;
  for (let i = 0; i < r.length; i += 2) {
    if (r[i] > next) neg.push(next, r[i] - 1);
    next = r[i + 1] + 1;
  }
  if (next <= MAX_CODE_POINT) neg.push(next, MAX_CODE_POINT);
  const pos = `[${classBody(r)}]`;
  const negative = `[^${classBody(neg)}]`;
  return negative.length < pos.length ? negative : pos;
}

const NEVER: Piece = { src: "[]", prec: ATOM };

class RegexPrinter {
  private readonly memo = new Map<string, Piece>();
  constructor(
    private readonly g: Grammar,
    private readonly deadline?: Deadline,
  ) {}

  wrap(p: Piece, need: number): string {
    return p.prec >= need ? p.src : `(?:${p.src})`;
  }

  rule(name: string): Piece {
    let p = this.memo.get(name);
    if (!p) {
      p = this.expr(this.g.rules.get(name) as GExpr);
      this.memo.set(name, p);
    }
    return p;
  }

  expr(e: GExpr): Piece {
    const p = this.exprInner(e);
    // the cost of a piece is in copying its text into its parent's
    this.deadline?.tick(STAGE, "", 1 + (p.src.length >> 6));
    if (p.src.length > REGEX_MAX_LENGTH) {
      throw new LimitExceededError(
        "LIMIT_GRAMMAR_SIZE",
        `the regex would exceed ${REGEX_MAX_LENGTH} characters (every rule is inlined); use the GBNF or the token matcher instead`,
      );
    }
    return p;
  }

  private exprInner(e: GExpr): Piece {
    switch (e.type) {
      case "literal":
      case "token": {
        const cps = [...e.text];
        const src = cps.map((c) => escapeCp(c.codePointAt(0) as number)).join("");
        return { src, prec: cps.length === 1 ? ATOM : SEQ };
      }
      case "charClass":
        return e.ranges.length === 0 ? NEVER : { src: charClass(e.ranges), prec: ATOM };
      case "ref":
        return this.rule(e.rule);
      case "seq": {
        if (e.items.length === 0) return { src: "", prec: SEQ };
        if (e.items.length === 1) return this.expr(e.items[0]);
        return { src: e.items.map((it) => this.wrap(this.expr(it), SEQ)).join(""), prec: SEQ };
      }
      case "alt": {
        if (e.items.length === 0) return NEVER;
        if (e.items.length === 1) return this.expr(e.items[0]);
        return { src: e.items.map((it) => this.expr(it).src).join("|"), prec: ALT };
      }
      case "repeat": {
        if (e.max !== null && e.max < e.min) return NEVER;
        if (e.max === 0) return { src: "", prec: SEQ };
        if (e.min === 1 && e.max === 1) return this.expr(e.item);
        const item = this.expr(e.item);
        // an empty item would print as `(?:)*`: valid, and it matches only ""
        const atom = item.src === "" ? "(?:)" : this.wrap(item, ATOM);
        return { src: atom + repetitionSuffix(e.min, e.max), prec: SEQ };
      }
      case "counted":
        throw countedRefusal(e, "A regex");
    }
  }
}

/**
 * A JavaScript regular expression source for the grammar's language, anchored as `^(?:…)$`; use it with the `u`
 * flag (`new RegExp(toRegex(g), "u")`), since classes and non-ASCII characters are written as `\u{…}`. Every rule is
 * inlined. Throws ToolgramError "NOT_REGULAR" (schemaPath `/<rule>`) when a rule reachable from the root is
 * recursive, and "LIMIT_GRAMMAR_SIZE" when the source would exceed {@link REGEX_MAX_LENGTH}. `deadline` counts the
 * work (a compiled grammar passes its compile limits).
 */
export function toRegex(g: Grammar, deadline?: Deadline): string {
  validateGrammar(g);
  const reachable = new Set(reachableRules(g, deadline));
  const rec = recursiveRules(g, deadline).filter((r) => reachable.has(r));
  if (rec.length > 0) {
    throw new ToolgramError(
      "NOT_REGULAR",
      `rule "${rec[0]}" is recursive, so the language may not be regular and has no regex; use the GBNF or the token matcher instead`,
      `/${rec[0]}`,
    );
  }
  return `^(?:${new RegexPrinter(g, deadline).rule(g.root).src})$`;
}
