/**
 * The postfix GBNF, XGrammar's EBNF and regular expressions share for "min to max times" (max null: unbounded):
 * nothing for exactly once, `?`, `*`, `+`, else braces.
 */
export function repetitionSuffix(min: number, max: number | null): string {
  if (min === 1 && max === 1) return "";
  if (min === 0 && max === 1) return "?";
  if (min === 0 && max === null) return "*";
  if (min === 1 && max === null) return "+";
  if (max === null) return `{${min},}`;
  if (min === max) return `{${min}}`;
  return `{${min},${max}}`;
}
