/**
 * Jinja2 syntax real chat templates use that @huggingface/jinja's parser refuses, rewritten into equivalent syntax it
 * reads before parsing (its parser cannot be extended the way its interpreter is).
 */

/** A `{{ … }}` or `{% … %}` tag: only the code inside tags is rewritten, never the template's literal text. */
const TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;

/**
 * `x is sameas true` (OLMo 3's `value is sameas true`): Jinja2's identity test with its argument written without
 * parentheses. Against the constants True, False and None it is exactly Jinja2's `true`, `false` and `none` tests,
 * which the library has; other arguments are left for the parser to refuse.
 */
const SAMEAS = /\bis(\s+not)?\s+sameas\s*\(?\s*(true|false|none|True|False|None)\b\s*(\))?/g;

/** A string literal inside a tag (kept as written). */
const STRING = /('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")/;

/** The template's source with the rewrites above applied to the code inside its tags (string literals kept). */
export function withJinja2Syntax(source: string): string {
  return source.replace(TAG, (tag) =>
    tag
      .split(STRING)
      .map((part, i) => (i % 2 === 1 ? part : part.replace(SAMEAS, sameas)))
      .join(""),
  );
}

function sameas(m: string, not: string | undefined, constant: string, close: string | undefined): string {
  // `sameas(true)` closes its parenthesis; `sameas true` has none to drop
  const open = /sameas\s*\(/.test(m);
  if (open !== (close !== undefined)) return m;
  return `is${not ?? ""} ${constant.toLowerCase()}`;
}
