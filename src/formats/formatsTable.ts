import { FORMAT_DESCRIPTIONS } from "./descriptions.js";
import type { FormatDescription } from "./FormatDescription.js";

const code = (s: string): string =>
  s === "" ? "" : `\`${JSON.stringify(s).slice(1, -1).replace(/\|/g, "\\|").replace(/`/g, "'")}\``;

const UNIT_NAMES: Readonly<Record<string, string>> = {
  "json-object": "JSON object",
  "python-call": "Python call",
  "gemma4-call": "Gemma 4 `call:NAME{…}`",
  "xml-elements": 'MiniMax M3 `NAME">` + nested elements',
};

/** How a format's calls are laid out, from its description: markers and grouping. */
function markers(d: FormatDescription): string {
  const open = d.open === null ? (d.section === undefined ? "(start of reply)" : "(no block marker)") : code(d.open);
  const close = d.close === null ? "" : ` … ${code(d.close)}`;
  const unit = UNIT_NAMES[d.unit.kind] ?? d.unit.kind;
  // a list not spelled `[…, …]` (OLMo 3's one call a line)
  const l = d.grouping === "list" ? d.list : undefined;
  const layout =
    l === undefined
      ? ""
      : `, ${l.open === "" && l.close === "" ? "no brackets" : `${code(l.open)} … ${code(l.close)}`}, joined by ${code(l.separator)}`;
  const grouping = d.grouping === "list" ? `a list of ${unit}s${layout}` : `one ${unit} per block`;
  const joined =
    d.grouping === "block" && d.maxCalls > 1 ? `, blocks joined by ${code(d.blockSeparator) || "nothing"}` : "";
  const after = d.afterCalls ? `, ${code(d.afterCalls)} after the last` : "";
  // a section around all blocks (DeepSeek, Kimi K2, MiniMax-M1)
  const section = d.section === undefined ? "" : `, all blocks in ${code(d.section.open)} … ${code(d.section.close)}`;
  // the end-of-turn token after the calls, which is not part of them (Functionary's `<|eom_id|>`)
  const end = d.callTurnEnd === undefined ? "" : `; the turn then ends with ${code(d.callTurnEnd)}`;
  // a turn of messages (Functionary v3.2, Muse Glimmer): text is a message too, and the prompt opens the first one
  // (all of it, or all but the text the turn writes before the first recipient)
  const first = d.messages?.first ?? "";
  const opened =
    first === ""
      ? `the first ${code(d.open ?? "")} written by the generation prompt`
      : `the first message opened by ${code(first)} after the generation prompt`;
  const messages =
    d.messages === undefined || d.open === null
      ? ""
      : `; text is the message ${code(d.open + d.messages.text)}…, ${opened}`;
  return `${open}${close}: ${grouping}${d.maxCalls === 1 ? ", one call" : ""}${joined}${after}${section}${end}${messages}`;
}

function reasoning(d: FormatDescription): string {
  if (d.reasoning === null) return "— (`reasoningMarkers` to add one)";
  // a family that always closes the block writes the close alone without reasoning (MiniMax M3)
  const alone = d.reasoning.closeAlone === true ? `; ${code(d.reasoning.close)} alone without reasoning` : "";
  // a turn of messages that may hold several blocks (Muse Glimmer's messages to `self`)
  const again =
    d.reasoning.again === undefined ? "" : `; more blocks each opened by ${code(d.reasoning.again)} after the close`;
  return `${code(d.reasoning.open) || "(opened by the prompt)"} … ${code(d.reasoning.close)}, default ${d.reasoning.defaultMode}${alone}${again}`;
}

/**
 * The formats table of docs/formats.md, generated from the descriptions (test/formats/formatsTable.test.ts checks
 * that the page shows exactly this): one row per format with its family, markers, reasoning block and aliases.
 */
export function formatsTable(): string {
  const rows = Object.values(FORMAT_DESCRIPTIONS).map(
    (d) =>
      `| \`${d.name}\` | ${d.family} | ${markers(d)} | ${reasoning(d)} | ${d.aliases.map((a) => `\`${a}\``).join(", ")} |`,
  );
  return ["| format | family | markers | reasoning | aliases |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}

/** The page's markers around the generated table. */
export const FORMATS_TABLE_START =
  "<!-- formats-table: generated from src/formats by `npx tsx scripts/formats-table.ts` -->";
export const FORMATS_TABLE_END = "<!-- /formats-table -->";
