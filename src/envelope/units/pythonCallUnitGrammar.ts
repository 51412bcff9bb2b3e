import { ToolgramError } from "../../errors.js";
import { PYTHON_CALL_NAME } from "../../formats/pythonNames.js";
import { seq, lit } from "../../grammar/build.js";
import { singleQuoteStrings } from "../../grammar/passes/singleQuoteStrings.js";
import { callSuffixOf } from "../../formats/callSuffixOf.js";
import type { UnitGrammar } from "./UnitGrammar.js";

/**
 * `NAME(k=v, ...)`: the arguments are lowered as keyword arguments with Python's True / False / None
 * (src/lower/lowerKeywordArguments.ts), strings between apostrophes where the unit says so; tool names must be one
 * Python-style name.
 */
export const pythonCallUnitGrammar: UnitGrammar = {
  ruleNames: [],
  argumentSpelling(d) {
    return {
      ...(d.unit.kind === "python-call" && d.unit.literals === "json"
        ? {}
        : { keywords: { true: "True", false: "False", null: "None" } }),
      keywordArguments: true,
      ...(d.unit.kind === "python-call" && d.unit.argumentSeparator !== undefined
        ? { keywordSeparator: d.unit.argumentSeparator }
        : {}),
      // LFM2's `'x'`: the JSON spelling with apostrophes as delimiters (PythonCallUnit.quote)
      ...(d.unit.kind === "python-call" && d.unit.quote === "single" ? { rewrite: singleQuoteStrings } : {}),
      checkToolName(name, path) {
        if (!PYTHON_CALL_NAME.test(name)) {
          throw new ToolgramError(
            "INVALID_TOOL",
            `format ${d.name} writes a call as name(...), and the tool name ${JSON.stringify(name)} is not a Python-style name ([A-Za-z_][A-Za-z0-9_.-]*); rename the tool or use another format`,
            path,
          );
        }
      },
    };
  },
  call(d, t) {
    return seq(lit(t.name + callSuffixOf(d)), t.arguments);
  },
};
