import { LimitExceededError } from "../errors.js";
import type { GExpr } from "../grammar/Grammar.js";
import { alt, EPSILON, isNothing, lit, NOTHING, opt, rep, seq } from "../grammar/build.js";
import { quoteJsonString } from "../json.js";
import type { ObjectNode, SchemaNode } from "../schema/SchemaNode.js";
import { valueMatches } from "../schema/valueMatches.js";
import type { LowerState } from "./LowerState.js";
import type { JsonStyle } from "./JsonStyle.js";
import { extraFamilies, type KeySpelling } from "./objectKeys.js";

/** The punctuation around an object's members: JSON's, or keyword arguments' `(k=v, ...)` (pythonic format). */
export interface ObjectSpelling {
  open: GExpr;
  close: GExpr;
  empty: GExpr;
  itemSeparator: GExpr;
  /** A declared member's key and the separator before its value. */
  key(name: string): GExpr;
  /** A declared member's value (absent: the schema's JSON value); tagged parameters write strings raw. */
  value?(n: SchemaNode): GExpr;
  /** Text after a declared member's value that depends on its key (MiniMax M3's closing tag `P</K>`); absent: none. */
  after?(name: string): GExpr;
  /** How undeclared keys are written (absent: JSON strings). */
  extraKeys?: KeySpelling;
}

function jsonObjectSpelling(s: JsonStyle): ObjectSpelling {
  return {
    open: s.objectOpen,
    close: s.objectClose,
    empty: s.emptyObject,
    itemSeparator: s.itemSeparator,
    key: (k) => seq(lit(quoteJsonString(k)), s.keySeparator),
  };
}

type Presence = "req" | "opt" | "abs";

/** Optional properties taking part in dependentRequired whose presence combinations are enumerated. */
export const MAX_DEPENDENT_PROPERTIES = 8;

/**
 * An object: declared properties in declaration order (optional ones may be skipped), then undeclared members
 * (patternProperties / additionalProperties). Separators are placed by two families of states, "nothing written
 * yet" (F) and "something written" (S), so no subset of members ever yields a leading or trailing comma.
 * min/maxProperties are tracked as a member count in the states; dependentRequired by enumerating the presence
 * combinations of the properties involved.
 */
export function lowerObject(n: ObjectNode, st: LowerState, sp: ObjectSpelling = jsonObjectSpelling(st.style)): GExpr {
  const s = st.style;
  const names = n.propertyNames;
  const keyAllowed = (key: string): boolean => {
    if (!names || names.kind === "any") return true;
    try {
      return valueMatches(names, key, st.defs);
    } catch {
      st.relax("propertyNames", `${n.path}/propertyNames`, `cannot decide whether the key "${key}" is allowed`);
      return true;
    }
  };

  const props = n.properties;
  const base: Presence[] = [];
  const values: GExpr[] = [];
  for (const p of props) {
    const v = keyAllowed(p.key) ? (sp.value ? sp.value(p.schema) : st.lower(p.schema)) : NOTHING;
    if (isNothing(v)) {
      if (p.required) return NOTHING;
      base.push("abs");
      values.push(NOTHING);
      continue;
    }
    base.push(p.required ? "req" : "opt");
    values.push(st.share(p.schema.path, "", v));
  }
  const index = new Map(props.map((p, i) => [p.key, i]));

  // dependentRequired: triggers that are not declared are kept out of the undeclared keys (fewer texts, exact);
  // declared triggers needing an undeclared key are forced absent.
  const excluded = props.map((p) => p.key);
  const constraints: { k: number; ds: number[] }[] = [];
  for (const [k, ds] of Object.entries(n.dependentRequired)) {
    const ki = index.get(k);
    if (ki === undefined) {
      if (!excluded.includes(k)) excluded.push(k);
      continue;
    }
    if (ds.some((d) => !index.has(d))) {
      if (base[ki] === "req")
        st.relax(
          "dependentRequired",
          `${n.path}/dependentRequired`,
          `required "${k}" needs undeclared properties ${JSON.stringify(ds)}`,
        );
      else base[ki] = "abs";
      continue;
    }
    constraints.push({ k: ki, ds: ds.map((d) => index.get(d)!) });
  }
  const assignments = presenceAssignments(base, constraints, n.path, st);

  const families = extraFamilies(n, excluded, st, sp.extraKeys);
  const extra = alt(...families.map((f) => seq(f.key, s.keySeparator, st.share(f.value.path, "", st.lower(f.value)))));
  const extraShared = isNothing(extra) ? extra : st.share(n.path, "member", extra);
  // bounds every member list meets anyway are dropped, so the common case needs no counting states
  const noExtras = isNothing(extraShared);
  const minP = n.minProperties <= base.filter((p) => p === "req").length ? 0 : n.minProperties;
  const maxP =
    n.maxProperties !== undefined && noExtras && n.maxProperties >= props.length ? undefined : n.maxProperties;

  const members = props.map((p, i) => seq(sp.key(p.key), values[i], sp.after ? sp.after(p.key) : EPSILON));
  const options: GExpr[] = [];
  assignments.forEach((pres, ai) => {
    const memo = new Map<string, GExpr>();
    const next = (c: number): number => (maxP !== undefined ? c + 1 : Math.min(c + 1, minP));
    const end = (c: number, started: boolean): GExpr => {
      const a = Math.max(0, minP - c);
      const b = maxP === undefined ? null : maxP - c;
      if (isNothing(extraShared)) return a > 0 || !started ? NOTHING : EPSILON;
      if (a >= 2) {
        st.relax(
          "minProperties",
          `${n.path}/minProperties`,
          `${a} undeclared properties may be needed to reach minProperties, and repeated keys would count once`,
        );
      }
      const bound = Math.max(a, b ?? 0);
      if (bound > st.limits.maxRepeatBound) {
        throw new LimitExceededError(
          "LIMIT_REPETITION",
          `a property count bound of ${bound} is above limits.maxRepeatBound ${st.limits.maxRepeatBound}; lower min/maxProperties or raise the limit`,
          n.path,
        );
      }
      if (started) return rep(seq(sp.itemSeparator, extraShared), a, b);
      if (b !== null && b < 1) return NOTHING;
      return seq(extraShared, rep(seq(sp.itemSeparator, extraShared), Math.max(a, 1) - 1, b === null ? null : b - 1));
    };
    const state = (i: number, c: number, started: boolean): GExpr => {
      const key = `${started ? "s" : "f"}${i}-${c}`;
      const hit = memo.get(key);
      if (hit) return hit;
      let e: GExpr;
      if (i === props.length) {
        e = end(c, started);
      } else if (started && minP === 0 && maxP === undefined) {
        // nothing counted: each later member is independently there or not, so the chain is a plain sequence
        const m = seq(sp.itemSeparator, members[i]);
        e = seq(pres[i] === "req" ? m : pres[i] === "opt" ? opt(m) : EPSILON, state(i + 1, c, true));
      } else {
        const parts: GExpr[] = [];
        const canEmit = maxP === undefined || c + 1 <= maxP;
        if (pres[i] !== "abs" && canEmit)
          parts.push(seq(started ? sp.itemSeparator : EPSILON, members[i], state(i + 1, next(c), true)));
        if (pres[i] !== "req") parts.push(state(i + 1, c, started));
        e = alt(...parts);
      }
      const counting = minP > 0 || maxP !== undefined;
      const label = `${assignments.length > 1 ? `v${ai}-` : ""}${started ? "rest" : "first"}-${i}${counting ? `-n${c}` : ""}`;
      const shared = st.share(n.path, label, e);
      memo.set(key, shared);
      return shared;
    };
    const emptyOk = pres.every((p) => p !== "req") && minP === 0;
    options.push(alt(emptyOk ? sp.empty : NOTHING, seq(sp.open, state(0, 0, false), sp.close)));
  });
  return alt(...options);
}

/** Presence of each declared property in every combination allowed by the dependencies (one if there are none). */
function presenceAssignments(
  base: Presence[],
  constraints: { k: number; ds: number[] }[],
  path: string,
  st: LowerState,
): Presence[][] {
  if (constraints.length === 0) return [base];
  const involved = [...new Set(constraints.flatMap((c) => [c.k, ...c.ds]))].filter((i) => base[i] === "opt");
  if (involved.length > MAX_DEPENDENT_PROPERTIES) {
    st.relax(
      "dependentRequired",
      `${path}/dependentRequired`,
      `${involved.length} optional properties take part (at most ${MAX_DEPENDENT_PROPERTIES} are enforced exactly)`,
    );
    return [base];
  }
  const out: Presence[][] = [];
  for (let mask = 0; mask < 1 << involved.length; mask++) {
    const pres = [...base];
    involved.forEach((i, b) => (pres[i] = mask & (1 << b) ? "req" : "abs"));
    if (constraints.every((c) => pres[c.k] !== "req" || c.ds.every((d) => pres[d] === "req"))) out.push(pres);
  }
  return out;
}
