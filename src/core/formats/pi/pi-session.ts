import type { SessionEntry, SessionHeader } from "./model/entries";
import { JsonlSession, type LoadOptions } from "../../session/jsonl-session";
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
