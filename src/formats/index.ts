export type { FormatName, DerivedFormatName } from "./FormatName.js";
export type {
  FormatDescription,
  CallUnitDescription,
  CallUnitKind,
  ReasoningMode,
  SectionDescription,
  ListLayout,
  MessagesDescription,
  ReasoningDescription,
} from "./FormatDescription.js";
export { FORMAT_DESCRIPTIONS, FORMAT_NAMES } from "./descriptions.js";
export { describeFormat, type FormatOption } from "./describeFormat.js";
export type { ReasoningOptions, ResolvedReasoning } from "./resolveReasoning.js";
