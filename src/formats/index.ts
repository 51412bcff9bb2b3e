export type { FormatName } from "./FormatName.js";
export type {
  FormatDescription,
  CallUnitDescription,
  CallUnitKind,
  JsonObjectUnit,
  PythonCallUnit,
  NameThenJsonUnit,
  ReasoningDescription,
  ReasoningMode,
  SectionDescription,
  XmlElementsUnit,
  XmlParametersUnit,
} from "./FormatDescription.js";
export { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "./descriptions.js";
export { describeFormat, type FormatOption } from "./describeFormat.js";
export { PYTHON_CALL_NAME, PYTHON_IDENTIFIER, PYTHON_NAME } from "./pythonNames.js";
export { resolveReasoning, type ReasoningOptions, type ResolvedReasoning } from "./resolveReasoning.js";
export { rawValueForbidden } from "./rawValueForbidden.js";
