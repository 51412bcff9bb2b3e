import type { TopLevelSpec } from "vega-lite";
import { toSvg } from "../plots.js";
import { ENDPOINTS, type EndpointId } from "./endpoints.js";
import { REQUEST_KINDS } from "./requestKinds.js";
import { groupBy, type RequestRecord, summarize } from "./summarize.js";

const COLORS = { domain: ["A", "B", "C"], range: ["#7f7f7f", "#ff7f0e", "#1f77b4"] };

/** Share of responses as asked, per request kind and endpoint, one panel per model family. */
export function conformingChart(records: RequestRecord[]): Promise<string> {
  const rows: { family: string; kind: string; endpoint: string; share: number; n: number }[] = [];
  for (const [family, ofFamily] of groupBy(records, (r) => r.family)) {
    for (const [key, group] of groupBy(ofFamily, (r) => `${r.endpoint}\u0000${r.kind}`)) {
      const [endpoint, kind] = key.split("\u0000");
      const s = summarize(group);
      rows.push({ family, kind, endpoint, share: s.conforming, n: s.n });
    }
  }
  const legend = (Object.entries(ENDPOINTS) as [EndpointId, string][]).map(([id, label]) => `${id}: ${label}`);
  const spec: TopLevelSpec = {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    title: {
      text: "Tool calls as asked: parsed, valid against their schema, and the count and names tool_choice asks",
      subtitle: legend,
    },
    data: { values: rows },
    facet: { column: { field: "family", type: "nominal", title: null } },
    spec: {
      width: 220,
      height: 180,
      mark: { type: "bar" },
      encoding: {
        x: { field: "kind", type: "nominal", sort: [...REQUEST_KINDS], title: null, axis: { labelAngle: -30 } },
        xOffset: { field: "endpoint", type: "nominal", sort: ["A", "B", "C"] },
        y: {
          field: "share",
          type: "quantitative",
          title: "share of responses",
          axis: { format: "%" },
          scale: { domain: [0, 1] },
        },
        color: { field: "endpoint", type: "nominal", scale: COLORS, title: "endpoint" },
        tooltip: [{ field: "endpoint" }, { field: "kind" }, { field: "share", format: ".0%" }, { field: "n" }],
      },
    },
  };
  return toSvg(spec);
}
