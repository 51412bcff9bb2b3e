import { ENDPOINTS, type EndpointId } from "./endpoints.js";
import { REQUEST_KINDS } from "./requestKinds.js";
import { groupBy, type GroupSummary, type RequestRecord, summarize } from "./summarize.js";

/** Per family: which endpoints were not started, and why. */
export type Refusals = Record<string, Partial<Record<EndpointId, string>>>;

const pct = (x: number | null): string => (x === null ? "–" : `${Math.round(x * 100)} %`);
const num = (x: number | null, digits = 0): string =>
  x === null ? "–" : x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const reasons = (f: Record<string, number>): string =>
  Object.entries(f)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "–";

function kindRow(endpoint: EndpointId, kind: string, s: GroupSummary): string {
  return `| ${endpoint} | ${kind} | ${s.n} | ${pct(s.withCall)} | ${pct(s.callsValidOfWithCall)} | **${pct(s.conforming)}** | ${reasons(s.finishReasons)} | ${s.errors} | ${num(s.ttftMsP50)} | ${num(s.latencyMsP50)} | ${num(s.decodeTokensPerSecondP50)} |`;
}

function setRow(endpoint: EndpointId, set: string, s: GroupSummary): string {
  return `| ${endpoint} | ${set} | ${s.n} | **${pct(s.conforming)}** | ${num(s.promptTokensP50)} | ${num(s.ttftMsP50)} | ${num(s.latencyMsP50)} | ${num(s.decodeTokensPerSecondP50)} | ${s.topProblem ?? "–"} |`;
}

/** The markdown tables of one family: by request kind, then by tool set. */
export function familyTables(family: string, records: RequestRecord[], refused: Refusals[string]): string {
  const lines: string[] = [`### ${family}`, ""];
  for (const [id, why] of Object.entries(refused)) lines.push(`- ${id} not measured: ${why}`);
  if (Object.keys(refused).length > 0) lines.push("");
  lines.push(
    "| endpoint | request | n | with a call | calls valid (of those) | as asked | finish_reason | errors | TTFT p50 (ms) | latency p50 (ms) | decode tok/s p50 |",
    "| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
  );
  const byEndpoint = groupBy(records, (r) => r.endpoint);
  for (const id of Object.keys(ENDPOINTS) as EndpointId[]) {
    const mine = byEndpoint.get(id) ?? [];
    if (mine.length === 0) continue;
    const byKind = groupBy(mine, (r) => r.kind);
    for (const kind of REQUEST_KINDS) {
      const g = byKind.get(kind);
      if (g) lines.push(kindRow(id, kind, summarize(g)));
    }
    lines.push(kindRow(id, "all", summarize(mine)));
  }
  lines.push(
    "",
    "| endpoint | tool set | n | as asked | prompt tokens p50 | TTFT p50 (ms) | latency p50 (ms) | decode tok/s p50 | most frequent problem |",
    "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  );
  for (const id of Object.keys(ENDPOINTS) as EndpointId[]) {
    for (const [set, g] of groupBy(byEndpoint.get(id) ?? [], (r) => r.toolSet))
      lines.push(setRow(id, set, summarize(g)));
  }
  return `${lines.join("\n")}\n`;
}

/** The whole results page. */
export function resultsPage(records: RequestRecord[], refusals: Refusals, header: string): string {
  const legend = Object.entries(ENDPOINTS)
    .map(([id, label]) => `${id}: ${label}`)
    .join("; ");
  const parts = [header, "", `Endpoints: ${legend}.`, ""];
  for (const [family, group] of groupBy(records, (r) => r.family))
    parts.push(familyTables(family, group, refusals[family] ?? {}));
  for (const family of Object.keys(refusals)) {
    if (!records.some((r) => r.family === family)) parts.push(familyTables(family, [], refusals[family]));
  }
  return `${parts.join("\n")}`;
}
