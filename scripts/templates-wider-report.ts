/**
 * The report over the wider template corpus (test/fixtures/templates-wider: tool chat templates from serving engines'
 * and fine-tuning frameworks' template folders, beyond llama.cpp's models/templates). For every template: does it
 * render a probe conversation with calls, does `formatFromChatTemplate` name a format, and when it does, is the
 * template's own rendering of the calls accepted by the compiled grammar and parsed back into the same calls
 * (src/testing/templateAcceptance.ts). A template that renders calls but is not detected is listed with its layout.
 * Usage: TOOLGRAM_WIDER_TEMPLATES=folder[:folder…] npx tsx scripts/templates-wider-report.ts
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkTemplateAcceptance } from "../src/testing/templateAcceptance.js";
import { probeTemplate } from "../src/templates/probeTemplate.js";

/** The manifest: each template's source repository, path, commit and license (committed). */
export const MANIFEST_DIR = new URL("../test/fixtures/templates-wider/", import.meta.url);

/**
 * Where the template files themselves are: `$TOOLGRAM_WIDER_TEMPLATES`, a folder holding the files the manifest names
 * (each read at its commit), or several folders separated by `:` (each file is read from the first folder that holds
 * it). The files are other projects' code, so the repository keeps only their provenance; the report and its test run
 * where the folders are given, and say so where they are not.
 */
export function widerTemplatesDirs(): string[] {
  return (process.env.TOOLGRAM_WIDER_TEMPLATES ?? "").split(":").filter((d) => d !== "");
}

/** The first folder of `$TOOLGRAM_WIDER_TEMPLATES` (see {@link widerTemplatesDirs}), or undefined when none is given. */
export function widerTemplatesDir(): string | undefined {
  return widerTemplatesDirs()[0];
}

/** The path of one template file: in the first of the folders that holds it, else in the first folder. */
export function widerTemplatePath(file: string, dirs: readonly string[] = widerTemplatesDirs()): string {
  return join(dirs.find((d) => existsSync(join(d, file))) ?? dirs[0] ?? ".", file);
}

/** One template of the corpus with its provenance (manifest.json). */
export interface WiderTemplate {
  file: string;
  repo: string;
  path: string;
  commit: string;
  license: string;
  /** For a template held inside another file (a field of a JSON file): where in that file. */
  extract?: string;
  text: string;
}

export interface WiderResult {
  file: string;
  /** `calls`: renders the probe's calls; `no-calls`: renders, but no call; `error`: does not render (`reason`). */
  renders: "calls" | "no-calls" | "error";
  /** The format formatFromChatTemplate names ("" when none). */
  format: string;
  /** The template's own 1- and 2-call turns (and with reasoning) are accepted by the compiled grammar. */
  accepted: boolean;
  /** … and parse strictly back into exactly the probe's calls. */
  parsedBack: boolean;
  /** Why the first step that fails fails ("" when all pass); for an undetected template, its layout in words. */
  reason: string;
}

/** The corpus, in manifest order, each file read from the first of `dirs` that holds it. */
export function listWiderTemplates(dirs: readonly string[]): WiderTemplate[] {
  return widerManifest().map((t) => ({ ...t, text: readFileSync(widerTemplatePath(t.file, dirs), "utf8") }));
}

/** The manifest's entries (provenance only). */
export function widerManifest(): Omit<WiderTemplate, "text">[] {
  const manifest = JSON.parse(readFileSync(new URL("manifest.json", MANIFEST_DIR), "utf8")) as {
    templates: Omit<WiderTemplate, "text">[];
  };
  return manifest.templates;
}

/** Checks one template; never throws. */
export function checkWiderTemplate(file: string, text: string): WiderResult {
  let renders: WiderResult["renders"];
  try {
    const probe = probeTemplate(text);
    renders = probe.oneCall !== undefined ? "calls" : probe.toolCallsError !== undefined ? "error" : "no-calls";
  } catch {
    renders = "error";
  }
  const a = checkTemplateAcceptance(file, text);
  // the acceptance steps run in order (grammar, strict parse, render back): the first failing one says how far it got
  const grammarFailed = /compileTools refused|the grammar rejects|is not described/.test(a.reason);
  const parseFailed = grammarFailed || /strict parse issues|parsed calls|parsed reasoning/.test(a.reason);
  const detected = a.format !== "";
  return {
    file,
    renders,
    format: a.format,
    accepted: detected && (a.status === "pass" || (a.status === "fail" && !grammarFailed)),
    parsedBack: detected && (a.status === "pass" || (a.status === "fail" && !parseFailed)),
    reason: a.reason,
  };
}

/** The counts the report leads with. */
export function widerCounts(results: readonly WiderResult[]): {
  templates: number;
  renderCalls: number;
  detected: number;
  accepted: number;
  parsedBack: number;
} {
  const calls = results.filter((r) => r.renders === "calls");
  return {
    templates: results.length,
    renderCalls: calls.length,
    detected: calls.filter((r) => r.format !== "").length,
    accepted: calls.filter((r) => r.accepted).length,
    parsedBack: calls.filter((r) => r.parsedBack).length,
  };
}

/** The report as Markdown: the counts, then one row per template. */
export function widerTable(results: readonly WiderResult[]): string {
  const c = widerCounts(results);
  const yes = (b: boolean): string => (b ? "yes" : "no");
  const cell = (s: string): string => s.replaceAll("|", "\\|").replaceAll("\n", "\\n");
  return [
    `${c.templates} templates; ${c.renderCalls} render calls; of those ${c.detected} detected, ${c.accepted} accepted by the grammar, ${c.parsedBack} parsed back into the same calls.`,
    "",
    "| template | renders | format | accepted | parsed back | why / layout |",
    "| --- | --- | --- | --- | --- | --- |",
    ...results.map(
      (r) =>
        `| ${r.file} | ${r.renders} | ${r.format} | ${yes(r.accepted)} | ${yes(r.parsedBack)} | ${cell(r.reason)} |`,
    ),
  ].join("\n");
}

async function main(): Promise<void> {
  const dirs = widerTemplatesDirs();
  if (dirs.length === 0) {
    console.error(
      "set TOOLGRAM_WIDER_TEMPLATES to the folder (or `:`-separated folders) holding the templates test/fixtures/templates-wider/manifest.json lists",
    );
    process.exitCode = 2;
    return;
  }
  const results = listWiderTemplates(dirs).map((t) => checkWiderTemplate(t.file, t.text));
  console.log(widerTable(results));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) await main();
