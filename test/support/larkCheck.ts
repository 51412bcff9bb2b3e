import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { CompiledGrammar } from "../../src/CompiledGrammar.js";
import { mutateText, sampleGrammar } from "../../src/testing/sampleGrammar.js";
import type { Vocabulary } from "../../src/vocab/Vocabulary.js";
import { type Random, seededRandom } from "../../src/util/seededRandom.js";

/**
 * Python Lark (Debian's python3-lark, read by Debian's /usr/bin/python3) as the judge of toolgram's Lark export:
 * test/support/larkVerdicts.py parses each text with Earley and the dynamic lexer. One Python process per batch.
 */
const PYTHON = "/usr/bin/python3";
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "larkVerdicts.py");

/** Why the Lark tests are skipped here, or undefined when Python Lark is installed. */
export const LARK_MISSING: string | undefined = (() => {
  if (!existsSync(PYTHON)) return `${PYTHON} is missing (Debian: apt-get install python3-lark)`;
  const r = spawnSync(PYTHON, ["-c", "import lark; print(lark.__version__)"], { encoding: "utf8" });
  return r.status === 0 ? undefined : "Python Lark is not installed (Debian: apt-get install python3-lark)";
})();

/** One grammar and the texts to judge against it. */
export interface LarkJob {
  grammar: string;
  texts: readonly string[];
}

/** Lark's verdict on each text of each job; throws when Lark refuses a grammar (the export must always be read). */
export function larkVerdicts(jobs: readonly LarkJob[]): boolean[][] {
  const r = spawnSync(PYTHON, [SCRIPT], {
    input: JSON.stringify(jobs),
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`larkVerdicts.py failed (${r.status}): ${r.stderr}`);
  const out = JSON.parse(r.stdout) as (boolean[] | { error: string })[];
  return out.map((v, i) => {
    if (!Array.isArray(v)) throw new Error(`Lark refused grammar ${i}: ${v.error}\n${jobs[i].grammar.slice(0, 2000)}`);
    return v;
  });
}

/** Characters for mutations: the text's own, and the ones that make or break JSON and tool-call structure. */
const STRUCTURE = ['"', "\\", "{", "}", "[", "]", ",", ":", " ", "\n", "<", ">", "0", "a", "é", "😀", "\u0001"];

/**
 * Texts to judge on one compiled grammar: seeded members, their seeded mutations (one to three edits) and their cut
 * prefixes (a generation stopped early), optionally with extra texts. Members found are listed first in `members`.
 */
export function larkTexts(
  c: CompiledGrammar,
  seed: number,
  nSamples: number,
  extra: readonly string[] = [],
): { members: string[]; texts: string[] } {
  const random = seededRandom(seed);
  const members: string[] = [];
  for (let i = 0; i < nSamples * 3 && members.length < nSamples; i++) {
    const s = sampleGrammar(c.grammar, random, { extraRepeats: 2, maxLength: 1500 });
    if (s !== undefined) members.push(s);
  }
  const texts = [...members, ...extra];
  for (const m of [...members, ...extra]) {
    const alphabet = [...new Set([...STRUCTURE, ...m])];
    texts.push(mutateText(m, alphabet, random, 1 + Math.floor(random() * 3)));
    const cps = [...m];
    if (cps.length > 1) texts.push(cps.slice(0, 1 + Math.floor(random() * (cps.length - 1))).join(""));
  }
  return { members, texts };
}

/**
 * A seeded walk under toolgram's own token masks over `vocab` (the end token with probability 0.3 when allowed,
 * else a structural token with probability 0.6 when one is allowed, so strings and objects get closed): the text a
 * constrained model could produce. Undefined when it did not end within `maxSteps`.
 */
export function toolgramWalk(
  c: CompiledGrammar,
  vocab: Vocabulary,
  random: Random,
  maxSteps = 200,
): string | undefined {
  const m = c.createMatcher(vocab);
  const bits = new Uint32Array(Math.ceil(vocab.size / 32));
  const bytes: number[] = [];
  for (let step = 0; step < maxSteps; step++) {
    m.fillNextTokenBitmask(bits);
    const allowed: number[] = [];
    const shaped: number[] = [];
    let eos = false;
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w];
      while (word !== 0) {
        const id = w * 32 + (31 - Math.clz32(word & -word));
        word &= word - 1;
        if (vocab.eosTokenIds.includes(id)) eos = true;
        else if (id < vocab.size) {
          allowed.push(id);
          const b = tokenText(vocab, id);
          if (b.length > 0 && b.every((x) => x < 0x80 && !/[A-Za-z]/.test(String.fromCharCode(x)))) shaped.push(id);
        }
      }
    }
    if (eos && (allowed.length === 0 || random() < 0.3))
      return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
    if (allowed.length === 0) throw new Error("toolgram's mask allows nothing and not the end");
    const from = shaped.length > 0 && random() < 0.6 ? shaped : allowed;
    const id = from[Math.floor(random() * from.length)];
    if (!m.acceptToken(id)) throw new Error(`toolgram refused token ${id}, which its own mask allowed`);
    bytes.push(...tokenText(vocab, id));
  }
  return undefined;
}

/** An ordinary token's bytes, or a special token's text (the text a walk spells). */
function tokenText(vocab: Vocabulary, id: number): number[] {
  const atom = vocab.atoms.get(id);
  return atom !== undefined ? [...new TextEncoder().encode(atom)] : [...vocab.tokenBytes(id)];
}

/** Texts on which Lark's verdict differs from toolgram's (`accepts`), with both verdicts. */
export function disagreements(
  c: CompiledGrammar,
  texts: readonly string[],
  lark: readonly boolean[],
): { text: string; lark: boolean; toolgram: boolean }[] {
  const out: { text: string; lark: boolean; toolgram: boolean }[] = [];
  texts.forEach((text, i) => {
    const toolgram = c.accepts(text);
    if (lark[i] !== toolgram) out.push({ text, lark: lark[i], toolgram });
  });
  return out;
}
