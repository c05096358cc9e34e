import { TextSession } from "../../../src/core/formats/pi/text-session";
import { type Raw, sessionText } from "../../helpers/session-builder";

/**
 * pi sessions for rule tests, held in memory: the lines (objects JSON-encoded, strings as
 * they are, e.g. a damaged line) read through the same index builder as a file, so a
 * test states its session in a few lines and writes nothing. The entry factories are
 * test/helpers/session-builder.ts's.
 */
export function piSession(lines: Array<Raw | string>, opts: { trailingNewline?: boolean; path?: string } = {}): TextSession {
  return TextSession.fromText(sessionText(lines, opts), opts.path);
}
