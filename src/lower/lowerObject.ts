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
    const body =
      st.propertyOrder === "any"
        ? anyOrder({
            n,
            st,
            sp,
            pres,
            members,
            extra: extraShared,
            counted: minP > 0 || maxP !== undefined,
            maxP,
            end,
            label: assignments.length > 1 ? `v${ai}-` : "",
          })
        : state(0, 0, false);
    options.push(alt(emptyOk ? sp.empty : NOTHING, seq(sp.open, body, sp.close)));
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

/** Most declared properties (present or optional in one presence combination) `propertyOrder: "any"` enumerates. */
export const MAX_ANY_ORDER_PROPERTIES = 10;

interface AnyOrderInput {
  n: ObjectNode;
  st: LowerState;
  sp: ObjectSpelling;
  pres: Presence[];
  members: GExpr[];
  /** One undeclared member, or NOTHING. */
  extra: GExpr;
  /** min/maxProperties need counting: undeclared members then come after the declared ones. */
  counted: boolean;
  maxP: number | undefined;
  end(c: number, started: boolean): GExpr;
  label: string;
}

/**
 * The members of an object in every order: one rule per set of declared properties written so far (a bit mask),
 * which may close once every required one is in, or go on with any property not yet written. Undeclared members may
 * come between them; when a member count is bounded they come last (counted by `end`), so texts with one in the
 * middle are rejected there (fewer texts, never an invalid one).
 */
function anyOrder(a: AnyOrderInput): GExpr {
  const { n, st, sp, pres, members, extra } = a;
  const live = pres.flatMap((p, i) => (p === "abs" ? [] : [i]));
  if (live.length > MAX_ANY_ORDER_PROPERTIES) {
    throw new LimitExceededError(
      "LIMIT_GRAMMAR_SIZE",
      `propertyOrder "any": this object has ${live.length} declared properties, above MAX_ANY_ORDER_PROPERTIES ${MAX_ANY_ORDER_PROPERTIES} (one grammar rule per subset of them); use propertyOrder "declared" for it`,
      n.path,
    );
  }
  let required = 0;
  live.forEach((i, b) => {
    if (pres[i] === "req") required |= 1 << b;
  });
  const extras = isNothing(extra) ? EPSILON : rep(seq(sp.itemSeparator, extra), 0, null);
  const memo = new Map<number, GExpr>();
  const popcount = (m: number): number => live.filter((_, b) => m & (1 << b)).length;
  const after = (mask: number): GExpr => {
    const hit = memo.get(mask);
    if (hit) return hit;
    const c = popcount(mask);
    const done = (mask & required) === required;
    const parts: GExpr[] = [];
    if (done) parts.push(a.counted ? a.end(c, true) : EPSILON);
    if (a.maxP === undefined || c + 1 <= a.maxP)
      live.forEach((i, b) => {
        if (!(mask & (1 << b))) parts.push(seq(sp.itemSeparator, members[i], after(mask | (1 << b))));
      });
    const e = a.counted ? alt(...parts) : seq(extras, alt(...parts));
    const shared = st.share(n.path, `${a.label}any-${mask.toString(16)}`, e);
    memo.set(mask, shared);
    return shared;
  };
  const first: GExpr[] = [];
  if (a.counted) {
    if (required === 0) first.push(a.end(0, false));
  } else if (!isNothing(extra)) first.push(seq(extra, after(0)));
  if (a.maxP === undefined || a.maxP >= 1) live.forEach((i, b) => first.push(seq(members[i], after(1 << b))));
  return alt(...first);
}
