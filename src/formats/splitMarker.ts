/**
 * A marker's leading whitespace, its core (the marker without that whitespace) and its trailing whitespace. Section
 * markers padded with newlines (MiniMax M2's `\n<minimax:tool_call>\n`) are recognised by their core: models write
 * them with other padding, so grammars keep the core out of text and values, and the parser finds it in any spacing.
 * A marker of whitespace only is all core.
 */
export function splitMarker(marker: string): { lead: string; core: string; trail: string } {
  const core = marker.trim();
  if (core === "") return { lead: "", core: marker, trail: "" };
  const at = marker.indexOf(core);
  return { lead: marker.slice(0, at), core, trail: marker.slice(at + core.length) };
}
