import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type HeadFacts, listWith, type ListOptions, type ListResult, type SessionScanner } from "../../store/discover";
import { detectClawdcode } from "./detect";
import { previewOf } from "../../session/line-text";
import { type ClawdcodeLine, contentText } from "./lines";

export const CLAWDCODE_ROOT_HELP = "$CLAWDCODE_DIR, else ~/.clawdcode";

/** The store root (the folder holding `projects/`): the explicit dir, else $CLAWDCODE_DIR, else ~/.clawdcode. */
export function clawdcodeRoot(explicit: string | undefined, env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  if (explicit) return resolve(explicit);
  if (env.CLAWDCODE_DIR) return resolve(env.CLAWDCODE_DIR);
  return join(home, ".clawdcode");
}

/**
 * The store's facts from the parsed objects of a file's head: id, cwd and created from
 * the first lines (the cwd never from the folder name, which cannot be turned back: "-"
 * stands for "/" and for itself), the first user message that is not a compact summary.
 * A file whose first object is no clawdcode line is refused, saying why and quoting nothing.
 */
function head(objects: Array<Record<string, unknown>>, size: number): HeadFacts {
  if (!objects.length) throw new Error(size === 0 ? "not a clawdcode session: the file is empty" : "not a clawdcode session: no JSON object at its start");
  // The list gets no path: the strict rule (15.2's line with a message) decides.
  if (!detectClawdcode({ path: "", objects: [objects[0]] })) {
    throw new Error("not a clawdcode session: its first JSON line has no uuid, parentUuid, sessionId, type and message as 15.2 lays them out");
  }
  const facts: HeadFacts = { id: "", cwd: "", created: "", firstMessage: "" };
  let found = false;
  for (const o of objects as unknown as ClawdcodeLine[]) {
    if (!facts.id && typeof o.sessionId === "string") facts.id = o.sessionId;
    if (!facts.cwd && typeof o.cwd === "string") facts.cwd = o.cwd;
    if (!facts.created && typeof o.timestamp === "string") facts.created = o.timestamp;
    if (!found && o.type === "user" && !o.isCompactSummary) {
      facts.firstMessage = previewOf(contentText(o.message?.content));
      found = facts.firstMessage !== "";
    }
    if (found && facts.id && facts.cwd && facts.created) break;
  }
  return facts;
}

/** The store: `<root>/projects/<cwd with "/" as "-">/<sessionId>.jsonl`, no header line. */
export const clawdcodeScanner: SessionScanner = {
  formatId: "clawdcode",
  projectsDir: (root) => join(root, "projects"),
  headerLines: 0,
  head,
};

/** Every clawdcode session under the root, grouped by cwd, newest first; non-sessions skipped with a reason. */
export function listClawdcodeSessions(root: string, opts: ListOptions = {}): Promise<ListResult> {
  return listWith(clawdcodeScanner, root, opts);
}
