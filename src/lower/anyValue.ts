import type { GExpr } from "../grammar/Grammar.js";
import { alt, lit, NOTHING, ref, rep, seq } from "../grammar/build.js";
import type { LowerState } from "./LowerState.js";
import { ANY_NUMBER } from "./number/lowerNumber.js";
import { stringContent } from "./lowerString.js";
import { ruleNameFromPath, uniqueRuleName } from "./ruleName.js";

/**
 * Adds the rule of any JSON value in the current style (recursive through arrays and objects) and returns a
 * reference to it. Repeated keys are harmless here: whatever value JSON.parse keeps is valid.
 */
export function anyValueRule(
  st: LowerState,
  rules: Map<string, GExpr>,
  prefix: string,
  members: (self: GExpr) => GExpr = (self) => self,
): GExpr {
  const name = uniqueRuleName(rules, ruleNameFromPath(prefix, "", "json-value"));
  const self = ref(name);
  rules.set(name, NOTHING); // reserve the name before the members' rule (an indented layout's next depth) is added
  // the values inside an array or object: this rule itself, or the rule of the next depth of an indented layout
  const value = members(self);
  const s = st.style;
  const str = seq(
    lit('"'),
    stringContent({ minLength: 0, patterns: [], notPatterns: [], formats: [] }, "", st),
    lit('"'),
  );
  const member = seq(str, s.keySeparator, value);
  rules.set(
    name,
    alt(
      alt(s.emptyObject, seq(s.objectOpen, member, rep(seq(s.itemSeparator, member), 0, null), s.objectClose)),
      alt(s.emptyArray, seq(s.arrayOpen, value, rep(seq(s.itemSeparator, value), 0, null), s.arrayClose)),
      str,
      ANY_NUMBER,
      lit(s.keywords.true),
      lit(s.keywords.false),
      lit(s.keywords.null),
    ),
  );
  return self;
}
