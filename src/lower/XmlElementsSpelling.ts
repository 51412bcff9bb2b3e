import type { XmlElementsUnit } from "../formats/FormatDescription.js";
import type { JsonValue } from "../json.js";

/** What the nested-elements lowering needs from the format (its XmlElementsUnit and markers). */
export interface XmlElementsSpelling {
  /** The format's name, for errors. */
  format: string;
  unit: XmlElementsUnit;
  /** Texts a string can never hold (xmlElementsForbidden). */
  forbidden: readonly string[];
  /** Why a key cannot be a tag, or undefined (xmlElementKeyProblem). */
  keyProblem(key: string): string | undefined;
  /** A constant's text (xmlElementValueText), or null when the syntax cannot write it. */
  valueText(v: JsonValue): string | null;
}
