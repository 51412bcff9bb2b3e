/**
 * The tool pair the exporters' checks (XGrammar EBNF, Lark) compile: a bounded string, an enum, an integer range and
 * an optional bounded array, in two tools.
 */
export const EXPORT_TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      description: "Current weather",
      parameters: {
        type: "object",
        properties: {
          city: { type: "string", minLength: 1 },
          unit: { enum: ["celsius", "fahrenheit"] },
          days: { type: "integer", minimum: 1, maximum: 14 },
        },
        required: ["city"],
        additionalProperties: false,
      },
    },
  },
  {
    type: "function",
    function: {
      name: "search",
      parameters: {
        type: "object",
        properties: { query: { type: "string" }, tags: { type: "array", items: { type: "string" }, maxItems: 3 } },
        required: ["query"],
      },
    },
  },
];
