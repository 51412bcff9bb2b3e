/**
 * The declarations `toolgram types` writes (tools.ts, kept current by test/parser/cli.test.ts) type
 * parseToolCalls<ToolCall>: `npm run typecheck` compiles this file, so the quick tier checks them without a tsc process
 * of its own (test/parser/cliTypes.long.test.ts runs tsc on freshly written declarations in the long tier). Never run.
 */
import { parseToolCalls } from "../../../src/parser/parseToolCalls.js";
import type { ToolCall } from "./tools.js";

const r = parseToolCalls<ToolCall>("", { tools: [] });
for (const c of r.calls) {
  if (c.name === "get_weather") {
    const city: string = c.arguments.city;
    void city;
    // @ts-expect-error the city is a string: a declaration that lost its type would make this line compile
    const wrong: number = c.arguments.city;
    void wrong;
  } else if (c.name === "search") {
    const n: number | undefined = c.arguments.limit;
    void n;
  }
}
