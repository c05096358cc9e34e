import type { SessionEntry, SessionHeader } from "./model/entries";
import { JsonlSession, type LoadOptions } from "../../session/jsonl-session";
import type { SessionReader } from "../../session/session-reader";
import { piIndexHooks } from "./index-hooks";

/** A loaded pi session: its header, and entries migrated in memory to version 3. */
export class Session extends JsonlSession<SessionEntry> {
  static load(path: string, opts: LoadOptions = {}): Promise<Session> {
    return JsonlSession.loadWith((...args) => new Session(...args), path, piIndexHooks, opts);
  }

  get header(): SessionHeader {
    return this.headerRecord as SessionHeader;
  }
}

/** A session as pi's, for pi's own rules behind its format's hooks (the registry read it as pi). */
export function asPi(session: SessionReader): Session {
  if (!(session instanceof Session)) throw new Error(`${session.path}: not read as a pi session`);
  return session;
}
