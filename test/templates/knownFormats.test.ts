/**
 * One format registry: the template matchers name described formats only, every name and alias of a description
 * names exactly one format, and a real template of a described format comes back under that format's name.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeFormat } from "../../src/formats/describeFormat.js";
import { FORMAT_DESCRIPTIONS } from "../../src/formats/descriptions.js";
import { formatFromChatTemplate } from "../../src/templates/formatFromChatTemplate.js";
import { KNOWN_FORMATS } from "../../src/templates/knownFormats.js";
import { llamaCppSource } from "../../src/testing/llamaCppSource.js";

describe("the format names", () => {
  const descriptions = Object.values(FORMAT_DESCRIPTIONS);

  it("every name and alias is claimed by exactly one description, and resolves to it", () => {
    const claims = new Map<string, string[]>();
    for (const d of descriptions)
      for (const n of [d.name, ...d.aliases]) claims.set(n, [...(claims.get(n) ?? []), d.name]);
    expect([...claims].filter(([, owners]) => owners.length !== 1)).toEqual([]);
    for (const [n, [owner]] of claims) expect(describeFormat(n).name, n).toBe(owner);
    expect(claims.size).toBeGreaterThan(descriptions.length);
  });

  it("each description sits under its own name", () => {
    for (const [key, d] of Object.entries(FORMAT_DESCRIPTIONS)) expect(d.name).toBe(key);
  });
});

describe("the template matchers", () => {
  it("each is keyed by a described format (aliases, family and all else come from the description)", () => {
    const keys = Object.keys(KNOWN_FORMATS);
    expect(keys.length).toBeGreaterThanOrEqual(38);
    expect(keys.filter((k) => !Object.hasOwn(FORMAT_DESCRIPTIONS, k))).toEqual([]);
    for (const m of Object.values(KNOWN_FORMATS)) expect(Object.keys(m).sort()).toEqual(["exact", "matches"]);
  });

  it("a template reading carries its description's aliases", () => {
    const hermes = `{%- for m in messages %}<|im_start|>{{ m.role }}
{% if m.tool_calls %}{% for c in m.tool_calls %}{% if not loop.first %}{{ "\\n" }}{% endif %}<tool_call>
{"name": "{{ c.function.name }}", "arguments": {{ c.function.arguments | tojson }}}
</tool_call>{% endfor %}{% else %}{{ m.content }}{% endif %}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;
    const f = formatFromChatTemplate(hermes);
    expect(f.format).toBe("qwen3");
    expect(f.aliases).toEqual(FORMAT_DESCRIPTIONS.qwen3.aliases);
  });
});

const source = await llamaCppSource();

describe.skipIf(source === undefined)("real templates name the implemented format", () => {
  const template = (name: string): string => readFileSync(join(source?.dir ?? "", "models", "templates", name), "utf8");

  it("Qwen3-Coder's own template is qwen3-coder, implemented, with its description's aliases", () => {
    const f = formatFromChatTemplate(template("Qwen3-Coder.jinja"));
    expect([f.format, f.implemented]).toEqual(["qwen3-coder", true]);
    expect(f.aliases).toEqual(FORMAT_DESCRIPTIONS["qwen3-coder"].aliases);
    expect(f.aliases).toContain("qwen3_coder");
  });

  it("Qwen3.5's template, the same calls after its reasoning block, is qwen3-coder too", () => {
    const f = formatFromChatTemplate(template("Qwen3.5-4B.jinja"));
    expect([f.format, f.implemented, f.reasoning]).toEqual(["qwen3-coder", true, "required"]);
  });
});
