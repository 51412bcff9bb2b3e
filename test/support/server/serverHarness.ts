import Ajv2020 from "ajv/dist/2020.js";
import { expect } from "vitest";
import { weatherTools } from "../../../bench/toolSets.js";
import { tinyQwen3 } from "../tinyQwen3.js";

/** The tools every server test declares. */
export const TOOLS = weatherTools();

export async function tinyModel(): Promise<string> {
  return (await tinyQwen3()).path;
}

const ajv = new Ajv2020.default({ strict: false });

/** Every call parses with JSON.parse and validates with ajv against its declared tool. */
export function expectValidCalls(
  calls: ReadonlyArray<{ function: { name: string; arguments: string } }>,
  tools: ReadonlyArray<{ function: { name: string; parameters: object } }> = TOOLS,
): void {
  const names = tools.map((t) => t.function.name);
  for (const call of calls) {
    expect(names).toContain(call.function.name);
    const args = JSON.parse(call.function.arguments) as unknown;
    const validate = ajv.compile(tools.find((t) => t.function.name === call.function.name)!.function.parameters);
    expect(validate(args), JSON.stringify(validate.errors)).toBe(true);
  }
}

/** A call without its minted id, to compare two runs. */
export function withoutIds(
  calls: ReadonlyArray<{ function: { name: string; arguments: string } }> | undefined,
): Array<{ name: string; arguments: string }> {
  return (calls ?? []).map((c) => ({ name: c.function.name, arguments: c.function.arguments }));
}

/** POSTs raw text to the chat endpoint. */
export async function postRaw(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: bodies of many shapes (errors, completions), each test reads its own
): Promise<{ status: number; json: any; headers: Headers }> {
  const r = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: r.status, json, headers: r.headers };
}
