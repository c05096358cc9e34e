import { withArticle } from "../../core/util/human";
import { whyNotOffered, type WriteAction } from "../../core/session/capabilities";
import { FORMATS } from "../../core/formats/registry";
import type { FormatWriter } from "../../core/session/session-format";
import type { SessionReader } from "../../core/session/session-reader";
import { CliError } from "../cli-error";

/** The agents whose writer passes `has` ("pi, ClawdCode"): what a refusal points to, from the registry, never a name written here. */
export function agentsWith(has: (w: FormatWriter) => boolean): string {
  return FORMATS.filter((f) => f.writer && has(f.writer)).map((f) => f.agent).join(", ");
}

/**
 * The refusal of a write a session's format does not offer, naming its format, the
 * agents that do offer it and the format's own reason.
 */
export function notOffered(session: SessionReader, what: string, action: WriteAction, has: (w: FormatWriter) => boolean): CliError {
  const f = session.format;
  return new CliError(`${session.path}: ${withArticle(f.agent)} session; ${what} is offered for ${agentsWith(has)} sessions only (${whyNotOffered(f, action)}); nothing written`);
}
