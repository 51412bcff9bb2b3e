import { defineConfig } from "vitepress";

/**
 * The documentation site. `npm run docs:build` generates the API reference (TypeDoc, into docs/public/api/) and then
 * builds this site into docs/.vitepress/dist/. VitePress fails the build on a dead link (its default, kept on).
 */
export default defineConfig({
  title: "toolgram",
  description: "Compile tool schemas into grammars so local models' tool calls always parse and validate.",
  cleanUrls: false,
  // the site is read offline: no external fonts or scripts; the icon is the site's own (docs/public/)
  head: [["link", { rel: "icon", type: "image/svg+xml", href: "/favicon.svg" }]],
  markdown: {
    // The pages quote model markup (`<tool_call>`, template text) that is text, never HTML: raw HTML in a page is
    // shown as written (HTML comments, the generators' markers, are dropped).
    config(md) {
      for (const rule of ["html_block", "html_inline"] as const) {
        md.renderer.rules[rule] = (tokens, i) => {
          const html = tokens[i].content;
          return html.trimStart().startsWith("<!--") ? "" : md.utils.escapeHtml(html);
        };
      }
    },
  },
  themeConfig: {
    nav: [
      { text: "Guide", link: "/" },
      { text: "Formats", link: "/formats" },
      { text: "API reference", link: "/api/index.html", target: "_self" },
    ],
    sidebar: [
      {
        text: "Using toolgram",
        items: [
          { text: "Overview", link: "/" },
          { text: "Options", link: "/options" },
          { text: "Formats", link: "/formats" },
          { text: "Parsing model output", link: "/parsing" },
          { text: "Errors and what is enforced", link: "/enforced" },
          { text: "Schema coverage", link: "/schema-coverage" },
          { text: "Command line", link: "/cli" },
        ],
      },
      {
        text: "Running models",
        items: [
          { text: "llama.cpp", link: "/llama-cpp" },
          { text: "Server", link: "/server" },
          { text: "Several instances", link: "/cluster" },
          { text: "vLLM and SGLang", link: "/vllm-sglang" },
          { text: "JavaScript runtimes (logits)", link: "/logits" },
          { text: "Playground", link: "/playground" },
        ],
      },
      {
        text: "Data and templates",
        items: [
          { text: "Dataset validation", link: "/dataset" },
          { text: "Chat templates", link: "/templates" },
          { text: "Template report", link: "/chat-templates" },
          { text: "Template acceptance", link: "/template-acceptance" },
        ],
      },
      {
        text: "Quality",
        items: [
          { text: "Conformance and fuzzing", link: "/conformance" },
          { text: "Benchmarks", link: "/benchmarks" },
          { text: "Limits", link: "/limits" },
        ],
      },
      {
        text: "Inside",
        items: [
          { text: "Architecture", link: "/ARCHITECTURE" },
          { text: "Performance records", link: "/perf/" },
          { text: "API reference", link: "/api/index.html", target: "_self" },
        ],
      },
    ],
    search: { provider: "local" },
  },
});
