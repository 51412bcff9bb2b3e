import { ToolgramError } from "../errors.js";
import { forEachNode } from "./analysis/foldExpr.js";
import { MAX_CODE_POINT, SURROGATE_HI, SURROGATE_LO, type GExpr, type Grammar } from "./Grammar.js";

const RULE_NAME = /^[a-z][a-z0-9-]*$/;

function fail(rule: string, what: string): never {
  throw new ToolgramError("INVALID_INPUT", `invalid grammar: rule "${rule}": ${what}`);
}

function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
      return true;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

function checkCounted(g: Grammar, rule: string, e: Extract<GExpr, { type: "counted" }>): void {
  const n = Array.isArray(e.states) ? e.states.length : 0;
  const isState = (q: unknown): boolean => Number.isInteger(q) && (q as number) >= 0 && (q as number) < n;
  if (n === 0) fail(rule, "counted states must be a non-empty array");
  if (!isState(e.start)) fail(rule, `counted start ${e.start} is not a state`);
  if (!Number.isInteger(e.min) || !Number.isInteger(e.max) || e.min < 0)
    fail(rule, "counted min, max and read must be integers >= 0");
  if (e.max < e.min) fail(rule, `counted max ${e.max} must be >= min (${e.min})`);
  for (const s of e.states) {
    for (const edge of s.edges) {
      if (!isState(edge.to)) fail(rule, `counted edge target ${edge.to} is not a state`);
      forEachNode(edge.label, (x) => {
        if (x.type === "token" || x.type === "counted") fail(rule, `a counted label must not hold a ${x.type}`);
      });
      checkExpr(g, rule, edge.label);
    }
  }
}

function checkExpr(g: Grammar, rule: string, e: GExpr): void {
  switch (e.type) {
    case "literal":
    case "token":
      if (typeof e.text !== "string" || e.text.length === 0) fail(rule, `${e.type} text must be a non-empty string`);
      if (hasLoneSurrogate(e.text)) fail(rule, `${e.type} ${JSON.stringify(e.text)} contains a lone surrogate`);
      return;
    case "charClass": {
      const r = e.ranges;
      if (r.length === 0 || r.length % 2 !== 0) fail(rule, "charClass ranges must be non-empty [lo, hi] pairs");
      for (let i = 0; i < r.length; i += 2) {
        const lo = r[i];
        const hi = r[i + 1];
        if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo < 0 || hi > MAX_CODE_POINT || lo > hi) {
          fail(rule, `charClass range [${lo}, ${hi}] is not within 0..0x10FFFF with lo <= hi`);
        }
        if (lo <= SURROGATE_HI && hi >= SURROGATE_LO) fail(rule, `charClass range [${lo}, ${hi}] contains surrogates`);
        if (i > 0 && lo <= r[i - 1] + 1)
          fail(rule, "charClass ranges must be sorted, non-overlapping and non-adjacent");
      }
      return;
    }
    case "seq":
    case "alt":
      for (const it of e.items) checkExpr(g, rule, it);
      return;
    case "repeat":
      if (!Number.isInteger(e.min) || e.min < 0) fail(rule, `repeat min ${e.min} must be an integer >= 0`);
      if (e.max !== null && (!Number.isInteger(e.max) || e.max < e.min)) {
        fail(rule, `repeat max ${e.max} must be null or an integer >= min (${e.min})`);
      }
      checkExpr(g, rule, e.item);
      return;
    case "ref":
      if (!g.rules.has(e.rule)) fail(rule, `references undefined rule "${e.rule}"`);
      return;
    case "counted":
      checkCounted(g, rule, e);
      return;
    default:
      fail(rule, `unknown node type ${JSON.stringify((e as { type?: unknown }).type)}`);
  }
}

/**
 * Checks the invariants documented in Grammar.ts (rule names, ranges, repeat bounds, references, literal text).
 * Throws ToolgramError "INVALID_INPUT" naming the offending rule.
 */
export function validateGrammar(g: Grammar): void {
  if (!g.rules.has(g.root)) {
    throw new ToolgramError("INVALID_INPUT", `invalid grammar: the root rule "${g.root}" is not defined`);
  }
  for (const [name, body] of g.rules) {
    if (!RULE_NAME.test(name)) fail(name, "rule names must match /^[a-z][a-z0-9-]*$/ (valid GBNF names)");
    checkExpr(g, name, body);
  }
}
