/** The page's state, as stored in the URL hash (`#s=…`: deflated JSON, base64url) so a problem can be shared. */
export interface PlaygroundState {
  tools: string;
  format: string;
  choice: string;
  parallel: string;
  whitespace: string;
  output: string;
}

export async function encodeState(state: PlaygroundState): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  const deflated = new Uint8Array(
    await new Response(
      new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("deflate-raw")),
    ).arrayBuffer(),
  );
  return `s=${toBase64Url(deflated)}`;
}

export async function decodeState(hash: string): Promise<Partial<PlaygroundState> | undefined> {
  const m = /(?:^#?|&)s=([A-Za-z0-9_-]+)/.exec(hash);
  if (!m) return undefined;
  try {
    const inflated = await new Response(
      new Blob([fromBase64Url(m[1]) as Uint8Array<ArrayBuffer>])
        .stream()
        .pipeThrough(new DecompressionStream("deflate-raw")),
    ).text();
    const value = JSON.parse(inflated) as unknown;
    return value && typeof value === "object" ? (value as Partial<PlaygroundState>) : undefined;
  } catch {
    return undefined; // a damaged link opens the default state
  }
}

function toBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
