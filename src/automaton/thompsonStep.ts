import { ToolgramError } from "../errors.js";
import { hasRefs } from "../grammar/analysis/refs.js";
import type { GExpr } from "../grammar/Grammar.js";
import { stepCounted } from "./countedStep.js";
import { hasTokens, inlineStates, isStep, isWideLoop, structuralKey } from "./exprShape.js";
import { WIDE_ALT_ITEMS } from "./frameRules.js";
import { type Inlining, LAZY_ALT_STATES, type NfaBuilder, TAIL_FRAME } from "./NfaBuilder.js";
import type { RunRecord } from "./RepeatCopies.js";
import { splitHighChars } from "./splitHighChars.js";
import { utf8Sequences } from "./utf8Sequences.js";

/** Above this many NFA states for all copies of a repetition's item, its copies call one frame. */
const REPEAT_COPY_LIMIT = 8192;
/**
 * A bounded repetition of more copies than twice this builds this many, then calls a lazy frame of the rest (built
 * when a decoding first comes near the end of these copies; it chunks its own rest alike). Built whole, the copies of
 * a `maxLength: 32767` string (a state and a call each) were built inside the mask that first entered the string:
 * three such strings made 98,000 states in one step.
 */
export const REPEAT_CHUNK = 1024;
/** In a lazy trie, the rest of one alternative larger than this becomes a lazy frame; a smaller one is inlined. */
const LAZY_TAIL_STATES = 8;

/**
 * A character class's UTF-8 byte-range sequences, per class object for every grammar of the process: the free text's
 * classes (built once per format's marker, `textWithout`) and the lowering's spelled classes are the same objects in
 * every compile, and their sequences were a twentieth of a 20-tool set's NFA construction.
 */
const classSeqs = new WeakMap<readonly number[], number[][]>();
let classesSequenced = 0;
/** Character classes turned into UTF-8 byte-range sequences by this process (each class object once). */
export function classesSequencedCount(): number {
  return classesSequenced;
}

/**
 * Thompson construction of a productive `e` between `from` and `to`, as a worklist (expressions and chains of
 * inlined rules can nest deeper than the call stack). `inl` lists the rules being inlined around the task.
 */
export function build(b: NfaBuilder, e: GExpr, from: number, to: number, inl: Inlining | null = null): void {
  const tasks = b.tasks;
  tasks.push({ e, from, to, inl });
  while (tasks.length > 0) {
    const t = tasks.pop()!;
    // a copy of a bounded repetition: its states start here (see RepeatCopies)
    if (t.run !== undefined) b.repeatCopies.started(t.run, b.n);
    step(b, t.e, t.from, t.to, t.inl);
  }
}

/** Builds what `e` needs directly and queues its parts (pushed last-first, so they are built in order). */
function step(b: NfaBuilder, e: GExpr, from: number, to: number, inl: Inlining | null): void {
  const later = b.later;
  const base = later.length;
  const outer = b.stepInl;
  b.stepInl = inl;
  try {
    stepInto(b, e, from, to, inl);
  } finally {
    b.stepInl = outer;
  }
  for (let k = later.length - 1; k >= base; k--) b.tasks.push(later[k]);
  later.length = base;
}

function stepInto(b: NfaBuilder, e: GExpr, from: number, to: number, inl: Inlining | null): void {
  const sub = b.sub;
  switch (e.type) {
    case "literal":
      b.literal(from, to, e.text);
      return;
    case "charClass": {
      let seqs = classSeqs.get(e.ranges);
      if (!seqs) {
        seqs = [];
        for (let i = 0; i < e.ranges.length; i += 2) utf8Sequences(e.ranges[i], e.ranges[i + 1], seqs);
        classSeqs.set(e.ranges, seqs);
        classesSequenced++;
      }
      for (const seq of seqs) b.bytesChain(from, to, seq);
      return;
    }
    case "seq":
      stepSeq(b, e.items, from, to);
      return;
    case "alt":
      // every item between `from` and `to` themselves: a built item only adds edges out of `from` and into `to`
      // (loops get their own head), so items cannot leak into each other, and the chains of exact repetitions
      // that end in `to` are shared by all items (a bounded number's digits)
      if ((b.large || b.deferAlts.has(e)) && e.items.length >= WIDE_ALT_ITEMS && b.sizeOf(e) > LAZY_ALT_STATES) {
        lazyAlt(
          b,
          e.items.filter((x) => b.productive(x)),
          from,
          to,
        );
        return;
      }
      for (const it of e.items) if (b.productive(it)) sub(it, from, to);
      return;
    case "repeat":
      stepRepeat(b, e, from, to);
      return;
    case "counted":
      stepCounted(b, e, from, to);
      return;
    case "ref": {
      const fi = b.frameIndex.get(e.rule);
      if (fi !== undefined) {
        b.calls.add(from, fi, 0, to);
        return;
      }
      const body = b.g.rules.get(e.rule)!;
      for (let i = inl; i !== null; i = i.outer) {
        if (i.rule === e.rule)
          throw new ToolgramError("INVALID_INPUT", `rule "${e.rule}" is recursive but was not detected as such`);
      }
      sub(body, from, to, { rule: e.rule, outer: inl });
      return;
    }
    case "token": {
      let a = b.atomIndex.get(e.text);
      if (a === undefined) {
        a = b.atomTexts.length;
        b.atomTexts.push(e.text);
        b.atomIndex.set(e.text, a);
      }
      b.atoms.add(from, a, 0, to);
      if (b.opts.specialTokens === "token-or-text") b.literal(from, to, e.text);
      return;
    }
  }
}

function stepSeq(b: NfaBuilder, items: readonly GExpr[], from: number, to: number): void {
  if (items.length === 0) {
    b.eps.add(from, 0, 0, to);
    return;
  }
  let cur = from;
  for (let k = 0; k < items.length; k++) {
    let it = items[k];
    const after = items[k + 1];
    if (k + 1 === items.length - 1 && isTailLoop(after)) {
      // the first character of an object's other keys, before the loop of their content (see the tail frame below):
      // its characters of several UTF-8 bytes go with that loop into one frame of their own, keyed by its structure
      // (the same for nearly every object), so that a mask at a key position takes that frame's shared subtree
      // masks below each lead byte, instead of walking every token prefix of a character of several bytes from
      // the caller (30,000 trie nodes for Qwen3) at every position of every key
      // (not where every character has several bytes. The loop is nested in the frame's body so that it is built
      // inline: a frame that calls another has no key)
      const split = splitHighChars(it);
      if (split !== null && split.low !== null) {
        const body: GExpr = { type: "seq", items: [split.high, { type: "seq", items: [after] }] };
        b.calls.add(cur, b.textFrame(body, TAIL_FRAME), 0, to);
        it = split.low;
      }
    }
    if (after !== undefined && after.type === "literal" && after.text.length > 0 && isWideLoop(it)) {
      // call a shared frame for "loop, closing character": its masks are computed once for every place it
      // occurs. Only the first character closes the frame; the rest of the literal (`", "next_key": ` after
      // the optimizer merged them) is the caller's, so that every string frame with the same content shares
      // one frame key, and so its masks across grammars
      const first = String.fromCodePoint(after.text.codePointAt(0)!);
      const rest = after.text.slice(first.length);
      const last = k + 1 === items.length - 1;
      const nxt = last && rest === "" ? to : b.newState();
      b.calls.add(cur, b.sharedFrame(it, first === after.text ? after : { type: "literal", text: first }), 0, nxt);
      cur = nxt;
      if (rest !== "") {
        const nxt2 = last ? to : b.newState();
        b.literal(cur, nxt2, rest);
        cur = nxt2;
      }
      k++;
      continue;
    }
    if (after === undefined && k > 0 && isTailLoop(it)) {
      // a loop that ends a sequence (an object's other keys: `c`, `cl`, ... each followed by the string's content,
      // then the closing `":` outside) calls one frame: inlined, every copy had its own exit state, so each prefix's
      // mask walked the whole trie; as a call, its masks (and subtree masks) are shared by every copy and grammar
      b.calls.add(cur, b.textFrame(it, TAIL_FRAME), 0, to);
      continue;
    }
    if (isWideLoop(it) && (after === undefined || after.type !== "literal") && !hasRefs(it) && !hasTokens(it)) {
      let j = k + 1;
      while (j < items.length && !hasRefs(items[j]) && !hasTokens(items[j])) j++;
      if (j < items.length) {
        const run = items.slice(k, j);
        const nxt = b.newState();
        b.calls.add(cur, b.textFrame(run.length === 1 ? run[0] : { type: "seq", items: run }), 0, nxt);
        cur = nxt;
        k = j - 1;
        continue;
      }
    }
    const nxt = k === items.length - 1 ? to : b.newState();
    b.sub(it, cur, nxt);
    cur = nxt;
  }
}

/** A loop that ends a sequence and calls a tail frame there (see stepSeq). */
function isTailLoop(e: GExpr | undefined): e is GExpr {
  return e !== undefined && isWideLoop(e) && !hasRefs(e) && !hasTokens(e);
}

function stepRepeat(b: NfaBuilder, e: Extract<GExpr, { type: "repeat" }>, from: number, to: number): void {
  const { sub, eps } = b;
  if (!b.productive(e.item)) {
    eps.add(from, 0, 0, to); // min is 0 here
    return;
  }
  // a long bounded repetition of a larger item calls one frame per copy instead of building every copy
  const copies = e.max ?? e.min + 1;
  const itemFi = copies > 16 && copies * inlineStates(e.item) > REPEAT_COPY_LIMIT ? b.itemFrame(e.item) : -1;
  const rec = b.repeatCopies;
  const buildItem = (a: number, c: number, run: RunRecord | null): void => {
    if (run !== null) rec.entry(run, a);
    if (itemFi >= 0) {
      b.calls.add(a, itemFi, 0, c);
      // a call: the copy makes no state of its own
      if (run !== null) rec.started(run, 0);
    } else if (run !== null) b.later.push({ e: e.item, from: a, to: c, inl: b.stepInl, run });
    else sub(e.item, a, c);
  };
  if (itemFi < 0 && e.max === e.min && e.min > 1 && isStep(e.item)) {
    // an exact repetition of one character (`[0-9]{k}`): its copies are built from `to` backwards and shared by
    // every repetition of the same item into the same place, so `[1-9] [0-9]{k}` for k = 1..n (a bounded
    // integer's digits) builds n states, not n²/2. A chain state only reads the rest of its chain into `to`.
    let next = to;
    const itemKey = structuralKey(e.item);
    let item = b.repeatItems.get(itemKey);
    if (item === undefined) b.repeatItems.set(itemKey, (item = b.repeatItems.size));
    for (let k = e.min - 1; k >= 1; k--) {
      let st = b.repeatTails.get(item, next);
      if (st < 0) {
        st = b.newState();
        b.repeatTails.set(item, next, st);
        sub(e.item, st, next);
      }
      next = st;
    }
    sub(e.item, from, next);
    return;
  }
  // the required copies, then the optional ones, are each a run of copies (see RepeatCopies), where every copy reads
  // at least a byte
  const counted = !b.mayBeEmpty(e.item);
  if ((e.max ?? e.min) > 2 * REPEAT_CHUNK) {
    stepChunk(b, e, from, to, counted, buildItem);
    return;
  }
  let run = counted ? rec.begin(e.min) : null;
  let cur = from;
  for (let k = 0; k < e.min; k++) {
    const nxt = b.newState();
    buildItem(cur, nxt, run);
    cur = nxt;
  }
  if (e.max === null) {
    // a fresh loop head, so that the loop cannot leak into `from` or `to`
    const head = b.newState();
    const body = b.newState();
    eps.add(cur, 0, 0, head);
    eps.add(head, 0, 0, to);
    eps.add(head, 0, 0, body);
    buildItem(body, head, null);
  } else {
    // optional copies nested as x(x(x)?)?: each copy may stop at `to`
    run = counted ? rec.begin(e.max - e.min) : null;
    for (let k = e.min; k < e.max; k++) {
      eps.add(cur, 0, 0, to);
      const nxt = k + 1 === e.max ? to : b.newState();
      buildItem(cur, nxt, run);
      cur = nxt;
    }
    if (e.min === e.max) eps.add(cur, 0, 0, to);
  }
}

/**
 * The first REPEAT_CHUNK copies of a long repetition (its required ones, then optional ones, each a run), then a call of
 * the lazy frame of the rest, `x{m - k, n - k}` (nullable where the copies built may end the repetition), which returns
 * to `to`. The language is the same; a position past the chunk is one stack deeper per chunk.
 */
function stepChunk(
  b: NfaBuilder,
  e: Extract<GExpr, { type: "repeat" }>,
  from: number,
  to: number,
  counted: boolean,
  buildItem: (a: number, c: number, run: RunRecord | null) => void,
): void {
  const rec = b.repeatCopies;
  const required = Math.min(e.min, REPEAT_CHUNK);
  let run = counted ? rec.begin(required) : null;
  let cur = from;
  for (let k = 0; k < required; k++) {
    const nxt = b.newState();
    buildItem(cur, nxt, run);
    cur = nxt;
  }
  run = counted ? rec.begin(REPEAT_CHUNK - required) : null;
  for (let k = required; k < REPEAT_CHUNK; k++) {
    b.eps.add(cur, 0, 0, to);
    const nxt = b.newState();
    buildItem(cur, nxt, run);
    cur = nxt;
  }
  const rest = b.repeatRest(e.item, e.min - required, e.max === null ? null : e.max - REPEAT_CHUNK);
  b.calls.add(cur, rest, 0, to);
}

interface TrieEntry {
  chars: string[];
  rest: GExpr[];
}

/**
 * A large alternation in a large grammar (the tools of a turn): the alternatives that begin with a literal are
 * merged into a trie of their first literals, character by character, as long as several alternatives share the
 * prefix; where one alternative is left, after one more character, the rest of it (the rest of the tool's name,
 * its arguments) is a lazy frame, built when a decoding first reads that far. The other alternatives are built
 * as usual.
 */
function lazyAlt(b: NfaBuilder, items: readonly GExpr[], from: number, to: number): void {
  const entries: TrieEntry[] = [];
  for (const it of items) {
    const head = it.type === "seq" ? it.items[0] : it;
    if (head !== undefined && head.type === "literal" && head.text.length > 0)
      entries.push({ chars: [...head.text], rest: it.type === "seq" ? it.items.slice(1) : [] });
    else b.sub(it, from, to);
  }
  if (entries.length > 0) trieNode(b, from, to, entries, 0);
}

/** The trie node at `at`, for the alternatives of `group` whose first `pos` characters led there. */
function trieNode(b: NfaBuilder, at: number, to: number, group: TrieEntry[], pos: number): void {
  const byChar = new Map<string, TrieEntry[]>();
  for (const en of group) {
    if (pos === en.chars.length) {
      // this alternative's literal ends here: its rest starts at this node
      if (en.rest.length === 0) b.eps.add(at, 0, 0, to);
      else b.sub(en.rest.length === 1 ? en.rest[0] : { type: "seq", items: en.rest }, at, to);
      continue;
    }
    const ch = en.chars[pos];
    const list = byChar.get(ch);
    if (list) list.push(en);
    else byChar.set(ch, [en]);
  }
  for (const [ch, list] of byChar) {
    const nxt = b.newState();
    b.literal(at, nxt, ch);
    if (list.length > 1) {
      trieNode(b, nxt, to, list, pos + 1);
      continue;
    }
    trieLeaf(b, nxt, to, list[0], pos + 1);
  }
}

/** Where one alternative is left (at `nxt`, its first `pos` characters read): the rest of it, lazily if large. */
function trieLeaf(b: NfaBuilder, nxt: number, to: number, en: TrieEntry, pos: number): void {
  const tail = en.chars.slice(pos).join("");
  const body: GExpr =
    tail === ""
      ? en.rest.length === 1
        ? en.rest[0]
        : { type: "seq", items: en.rest }
      : { type: "seq", items: [{ type: "literal", text: tail }, ...en.rest] };
  // the literal that follows (the rest of the name, and literals after it) in a frame of its own, the rest
  // (the arguments) in another, built when a decoding reads past the literal
  let head = tail;
  let k = 0;
  while (k < en.rest.length && en.rest[k].type === "literal") head += (en.rest[k++] as { text: string }).text;
  const restItems = k === 0 ? en.rest : en.rest.slice(k);
  const rest: GExpr | undefined =
    restItems.length === 0 ? undefined : restItems.length === 1 ? restItems[0] : { type: "seq", items: restItems };
  if (b.sizeOf(body) > LAZY_TAIL_STATES)
    b.calls.add(
      nxt,
      head !== "" && rest !== undefined && b.sizeOf(rest) > LAZY_TAIL_STATES
        ? b.lazyFrame(rest, head)
        : b.lazyFrame(body),
      0,
      to,
    );
  else if (en.rest.length === 0 && tail === "") b.eps.add(nxt, 0, 0, to);
  else b.sub(body, nxt, to);
}
