import type { Deadline } from "../../Deadline.js";
import type { Counted, CountedState, GExpr, Grammar } from "../Grammar.js";

/**
 * A canonical string of an expression: equal strings ⇔ structurally equal expressions. Iterative; `deadline` is
 * ticked per node. `refName` renames references (a key that does not depend on the grammar's rule names); `known` may
 * give the key of a sub-expression already computed (memoized elsewhere), which is then used as it is.
 */
export function exprKey(
  e: GExpr,
  deadline?: Deadline,
  refName?: (rule: string) => string,
  known?: (e: GExpr) => string | undefined,
): string {
  // one buffer for the whole tree: joining the children's strings at every level would copy a deep chain's tail
  // once per level (quadratic)
  const out: string[] = [];
  const stack: (GExpr | string)[] = [e];
  while (stack.length > 0) {
    const x = stack.pop() as GExpr | string;
    if (typeof x === "string") {
      out.push(x);
      continue;
    }
    deadline?.tick("keying grammar expressions");
    const k = known?.(x);
    if (k !== undefined) {
      out.push(k);
      continue;
    }
    switch (x.type) {
      case "literal":
        out.push(`l${JSON.stringify(x.text)}`);
        break;
      case "token":
        out.push(`t${JSON.stringify(x.text)}`);
        break;
      case "charClass":
        out.push(`c[${x.ranges.join(",")}]`);
        break;
      case "ref":
        out.push(refName === undefined ? `r${JSON.stringify(x.rule)}` : `r${refName(x.rule)}`);
        break;
      case "seq":
      case "alt": {
        out.push(x.type === "seq" ? "s(" : "a(");
        const sep = x.type === "seq" ? " " : "|";
        stack.push(")");
        for (let i = x.items.length - 1; i >= 0; i--) {
          stack.push(x.items[i]);
          if (i > 0) stack.push(sep);
        }
        break;
      }
      case "repeat":
        out.push(`p{${x.min},${x.max ?? ""}}(`);
        stack.push(")", x.item);
        break;
      case "counted":
        // renamed references (a key independent of rule names) reach inside the labels too
        out.push(
          refName === undefined ? countedKey(x) : countedKeyWith(x, (l) => exprKey(l, deadline, refName, known)),
        );
        break;
    }
  }
  return out.join("");
}

const statesKeys = new WeakMap<readonly CountedState[], string>();

/**
 * A canonical string of a counted automaton's states (labels by `exprKey`), per states object: equal strings ⇔
 * the same automaton, so two properties with the same bounded format share their rules after deduplication.
 */
function countedStatesKey(states: readonly CountedState[], labelKey: (label: GExpr) => string): string {
  const parts: string[] = [];
  for (const s of states) {
    let p = s.accept ? "+" : "-";
    for (const e of s.edges) p += `${labelKey(e.label)}*${e.len}>${e.to};`;
    parts.push(p);
  }
  return parts.join("/");
}

/** The canonical string of a counted node (its states' key is computed once per states object). */
export function countedKey(e: Counted): string {
  let k = statesKeys.get(e.states);
  if (k === undefined) statesKeys.set(e.states, (k = countedStatesKey(e.states, (label) => exprKey(label))));
  return `k{${e.start},${e.min},${e.max}}(${k})`;
}

/** `countedKey` with the labels keyed by `labelKey` (not cached: references renamed per caller). */
function countedKeyWith(e: Counted, labelKey: (label: GExpr) => string): string {
  return `k{${e.start},${e.min},${e.max}}(${countedStatesKey(e.states, labelKey)})`;
}

/** `exprKey(e)`, memoized in `cache` (by identity: expressions are never mutated). */
export function cachedKey(e: GExpr, cache: Map<GExpr, string> | WeakMap<GExpr, string>, deadline?: Deadline): string {
  let k = cache.get(e);
  if (k === undefined) cache.set(e, (k = exprKey(e, deadline)));
  return k;
}

/** A canonical string of a whole grammar (root, then rules in order). */
export function grammarKey(g: Grammar): string {
  const parts = [`root=${g.root}`];
  for (const [name, body] of g.rules) parts.push(`${name}=${exprKey(body)}`);
  return parts.join("\n");
}

/**
 * Structural identities of expressions within one table: equal numbers ⇔ structurally equal expressions (as equal
 * `exprKey`s). A node's identity is interned from its type, its own data and its children's identities, and kept per
 * node object: a body rebuilt around sub-expressions already seen (an inlined rule, a renamed reference) costs its
 * new nodes only, where `exprKey` prints the whole body again.
 */
export class StructuralIds {
  private readonly ids = new Map<GExpr, number>();
  private readonly bySignature = new Map<string, number>();
  private readonly literals = new Map<string, number>();
  private readonly tokens = new Map<string, number>();
  private readonly refs = new Map<string, number>();
  private next = 0;
  /** Identities of bodies read modulo a reference to their own rule, per body and rule (see `ofModulo`). */
  private readonly modulo = new Map<GExpr, { rule: string; id: number }>();

  private intern(table: Map<string, number>, key: string): number {
    let id = table.get(key);
    if (id === undefined) table.set(key, (id = this.next++));
    return id;
  }

  /**
   * The identity of `e` with its references to `rule` replaced by `self` (`rewrite` builds that expression): kept per
   * body, so a body an optimizer round leaves as it is is not rebuilt and keyed again in the next.
   */
  ofModulo(e: GExpr, rule: string, rewrite: (e: GExpr) => GExpr, deadline?: Deadline): number {
    const known = this.modulo.get(e);
    if (known !== undefined && known.rule === rule) return known.id;
    const id = this.of(rewrite(e), deadline);
    this.modulo.set(e, { rule, id });
    return id;
  }

  /**
   * The identity of `e`; `deadline` is ticked per node not seen before. A loop of its own rather than `foldExpr`:
   * every pass folds with its own function and memo table, which left foldExpr's calls generic, and keying is the
   * optimizer's largest share of a tool set's compile.
   */
  of(e: GExpr, deadline?: Deadline): number {
    const ids = this.ids;
    const known = ids.get(e);
    if (known !== undefined) return known;
    // post-order: a node is on the stack first to push its children (expanded false), then to be interned
    const nodes: GExpr[] = [e];
    const expanded: boolean[] = [false];
    while (nodes.length > 0) {
      const top = nodes.length - 1;
      const x = nodes[top];
      if (!expanded[top] && (x.type === "seq" || x.type === "alt" || x.type === "repeat")) {
        expanded[top] = true;
        if (x.type === "repeat") {
          if (!ids.has(x.item)) {
            nodes.push(x.item);
            expanded.push(false);
          }
          continue;
        }
        for (let i = x.items.length - 1; i >= 0; i--) {
          const k = x.items[i];
          if (ids.has(k)) continue;
          nodes.push(k);
          expanded.push(false);
        }
        continue;
      }
      nodes.pop();
      expanded.pop();
      // a node shared by two parents can be pushed twice before it is interned
      if (ids.has(x)) continue;
      deadline?.tick("keying grammar expressions");
      ids.set(x, this.intern1(x));
    }
    return ids.get(e) as number;
  }

  /** The identity of `x`, whose children (if any) have theirs. */
  private intern1(x: GExpr): number {
    switch (x.type) {
      // leaves (most nodes) are interned by their text alone, one table per kind: no signature string to build
      case "literal":
        return this.intern(this.literals, x.text);
      case "token":
        return this.intern(this.tokens, x.text);
      case "ref":
        return this.intern(this.refs, x.rule);
      case "charClass":
        return this.intern(this.bySignature, `c${x.ranges.join(",")}`);
      case "seq":
      case "alt": {
        let sig = x.type === "seq" ? "s" : "a";
        const items = x.items;
        for (let i = 0; i < items.length; i++)
          sig += i === 0 ? `${this.ids.get(items[i])}` : `,${this.ids.get(items[i])}`;
        return this.intern(this.bySignature, sig);
      }
      case "repeat":
        return this.intern(this.bySignature, `p${x.min},${x.max ?? ""},${this.ids.get(x.item)}`);
      case "counted":
        return this.intern(this.bySignature, countedKey(x));
    }
  }
}
