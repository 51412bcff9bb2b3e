import { createRequire } from "node:module";
import { compileTools } from "../compile.js";
import { ToolgramError } from "../errors.js";
import type { FormatDescription } from "../formats/FormatDescription.js";
import { type AcceptorData, acceptorBuffers, acceptorData, acceptorFromData } from "../grammar/accepts.js";
import type { JsonObject } from "../json.js";
import {
  adoptStrictBlockCheck,
  compileStrictBlockCheck,
  strictCheckOf,
  strictCheckOptions,
  type UnitCheck,
} from "../parser/strictBlockCheck.js";
import {
  adoptParserTools,
  ToolValidators,
  toParserTools,
  type ValidatorSource,
  validatorsFor,
} from "../parser/toolValidators.js";
import type { ParserTool } from "../parser/types.js";

/** ajv standalone code requires ajv's runtime helpers and ajv-formats' formats from here. */
const requireHere = createRequire(import.meta.url);

/**
 * What a turn's strict parser compiles for a tool set (the server's TurnAssembler reads every turn with tools this
 * way): the one-call grammar's recognizer (strictBlockCheck) and each tool's argument validator (ajv). Compiled on the
 * compile worker, because for a large or deep tool set each costs hundreds of milliseconds, which on the event loop
 * would pause every other stream.
 */
export interface ParserJob {
  readonly tools: readonly JsonObject[];
  /** The format's description, not its name: a worker does not know the formats derived from templates here. */
  readonly format: FormatDescription;
}

/** The compiled parts as structured-clone data (the recognizer's buffers transferable). */
export interface ParserData {
  /** null: the tools do not compile for the format (the parser's own check then stands alone). */
  readonly check: AcceptorData | null;
  readonly validators: Map<string, ValidatorSource>;
  /**
   * The tools as the parser reads them (toParserTools: normalizing the 117 GitHub MCP tools takes tens of
   * milliseconds); null for a tool list the parser refuses, which it then refuses itself where it reads it.
   */
  readonly tools: ParserTool[] | null;
}

/** Compiles a parser job where it is called (the compile worker, or the event loop when no worker is used). */
export function runParserJob(job: ParserJob): ParserData {
  const d = job.format;
  let check: AcceptorData | null = null;
  try {
    check = acceptorData(compileTools(job.tools, { ...strictCheckOptions(d, "forbid"), format: d }).grammar);
  } catch (e) {
    if (!(e instanceof ToolgramError)) throw e;
  }
  let validators = new Map<string, ValidatorSource>();
  let tools: ParserTool[] | null = null;
  try {
    tools = toParserTools(job.tools);
    validators = new ToolValidators(tools, true).validatorSources();
  } catch (e) {
    // an invalid tool list: the parser refuses it itself, on whichever thread reads it
    if (!(e instanceof ToolgramError)) throw e;
  }
  return { check, validators, tools };
}

/** The buffers of `data` to transfer rather than copy. */
export function parserBuffers(data: ParserData): ArrayBuffer[] {
  return data.check === null ? [] : acceptorBuffers(data.check);
}

/**
 * Gives `tools` (this array: the parser caches by array) the parts being compiled for it elsewhere (`data`), so that a
 * strict parser of these tools in `format` compiles nothing on this thread once they have come. Nobody waits for
 * them: a call that ends before they come is checked and validated with parts compiled here, as without this.
 * Resolves once they came (or failed to).
 */
export function adoptParser(
  tools: readonly JsonObject[],
  d: FormatDescription,
  data: Promise<ParserData>,
): Promise<void> {
  // undefined: neither come nor compiled here yet
  let check: UnitCheck | null | undefined;
  adoptStrictBlockCheck(tools, d, "forbid", (unit) => {
    check ??= compileStrictBlockCheck(tools, d, "forbid");
    return check === null || check(unit);
  });
  return data.then(
    (parts) => {
      if (check === undefined) {
        const acceptor = parts.check === null ? null : acceptorFromData(parts.check);
        check = acceptor === null ? null : strictCheckOf((t) => acceptor.accepts(t), d);
      }
      // the tools as normalized there: the validators below read them, and a parser made later normalizes nothing
      if (parts.tools !== null) adoptParserTools(tools, parts.tools, "forbid");
      try {
        validatorsFor(tools, "forbid").adoptSources(parts.validators, requireHere);
      } catch (e) {
        // an invalid tool list: the parser refuses it itself when it reads it
        if (!(e instanceof ToolgramError)) throw e;
      }
    },
    () => undefined,
  );
}
