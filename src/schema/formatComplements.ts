/**
 * Formats whose complement is exact: for each, a whole-string ECMAScript regex (`u` flag, anchored, letters in both
 * cases written out) whose language is exactly ajv-formats' ("full" mode, the referee). toolgram enforces a format as
 * ajv's language narrowed to the RFC's (`formatSources.ts`), so the complement of that narrowed language would be
 * wider than "not valid for ajv"; the complement of ajv's own language is exact. Formats whose ajv check is code
 * (`date`, `uri`, `byte`) or whose regex is not copied here keep the refusal.
 * `test/schema/formatComplements.test.ts` checks each source against ajv-formats on valid, near-valid and random
 * strings.
 */
import { URL_SOURCE } from "./formatSources.js";

const HEX = "[0-9a-fA-F]";
const ALNUM = "[a-zA-Z0-9]";
const ATEXT = "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]";
const DEC_OCTET = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;

const AJV_LANGUAGE: Readonly<Record<string, string>> = {
  // ajv: /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i
  uuid: `^(?:[uU][rR][nN]:[uU][uU][iI][dD]:)?${HEX}{8}-(?:${HEX}{4}-){3}${HEX}{12}$`,
  // ajv: the same source, no flags
  ipv4: String.raw`^(?:${DEC_OCTET}\.){3}${DEC_OCTET}$`,
  // ajv: /…/i over ASCII classes (a non-unicode `i` folds no other character into ASCII)
  email: `^${ATEXT}+(?:\\.${ATEXT}+)*@(?:${ALNUM}(?:[a-zA-Z0-9-]*${ALNUM})?\\.)+${ALNUM}(?:[a-zA-Z0-9-]*${ALNUM})?$`,
  // ajv: no flags; `[^~/]*` matches the same strings by UTF-16 unit (ajv) as by code point (`u`)
  "json-pointer": String.raw`^(?:\/(?:[^~/]|~0|~1)*)*$`,
  // ajv: /…/i, letters only in `[0-9a-f]` (written out in both cases here), `\d` ASCII with or without `u`
  ipv6: String.raw`^((([0-9a-f]{1,4}:){7}([0-9a-f]{1,4}|:))|(([0-9a-f]{1,4}:){6}(:[0-9a-f]{1,4}|((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){5}(((:[0-9a-f]{1,4}){1,2})|:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})|:))|(([0-9a-f]{1,4}:){4}(((:[0-9a-f]{1,4}){1,3})|((:[0-9a-f]{1,4})?:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){3}(((:[0-9a-f]{1,4}){1,4})|((:[0-9a-f]{1,4}){0,2}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){2}(((:[0-9a-f]{1,4}){1,5})|((:[0-9a-f]{1,4}){0,3}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(([0-9a-f]{1,4}:){1}(((:[0-9a-f]{1,4}){1,6})|((:[0-9a-f]{1,4}){0,4}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:))|(:(((:[0-9a-f]{1,4}){1,7})|((:[0-9a-f]{1,4}){0,5}:((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}))|:)))$`.replaceAll(
    "[0-9a-f]",
    HEX,
  ),
  "relative-json-pointer": String.raw`^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$`,
  // ajv: /…/iu; the enforced language is ajv's own (formatSources.ts writes the `iu` folds out)
  url: `^(?:${URL_SOURCE})$`,
};

/**
 * A regex source (search semantics, anchored) matching exactly the strings ajv-formats accepts for `name`, or
 * undefined when toolgram has none (the complement of that format is then refused).
 */
export function ajvFormatLanguage(name: string): string | undefined {
  return Object.hasOwn(AJV_LANGUAGE, name) ? AJV_LANGUAGE[name] : undefined;
}
