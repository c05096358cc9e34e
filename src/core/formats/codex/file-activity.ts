import type { FileActivity } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { relativePath } from "../../session/tool-summary";
import { callInput } from "./index-hooks";
import { type CodexLine, payloadOf, str } from "./lines";
import { codexFacts } from "./session";

/** The files an apply_patch text names, with what it does to each ("*** Add File: a.ts"). */
function patchFiles(patch: string): Array<["written" | "edited", string]> {
  const out: Array<["written" | "edited", string]> = [];
  const re = /^\*\*\* (Add|Update|Delete) File: ([^\n]{1,500})$/gm;
  const text = patch.slice(0, 1_000_000);
  for (let m = re.exec(text); m && out.length < 1000; m = re.exec(text)) out.push([m[1] === "Add" ? "written" : "edited", m[2].trim()]);
  return out;
}

/**
 * Files the entries at these positions touched, in order first touched: what apply_patch
 * calls add, update or delete (a shell command's files cannot be told from its text, so
 * exec_command counts for none).
 */
export function codexFiles(session: SessionReader, positions: readonly number[]): FileActivity[] {
  const cwd = str(codexFacts(session).meta.cwd);
  const byPath = new Map<string, FileActivity>();
  for (const i of positions) {
    if (session.table.typeAt(i) !== "response_item" || !session.table.toolCalls[i]) continue;
    const p = payloadOf(session.entryAt(i) as CodexLine);
    if (p.name !== "apply_patch") continue;
    const input = p.type === "custom_tool_call" ? p.input : (callInput(p.arguments) as { input?: unknown } | undefined)?.input;
    if (typeof input !== "string") continue;
    for (const [how, raw] of patchFiles(input)) {
      const path = relativePath(raw, cwd);
      let a = byPath.get(path);
      if (!a) byPath.set(path, (a = { path, read: 0, written: 0, edited: 0, fromSummary: [], firstEntryId: session.table.idAt(i) }));
      a[how]++;
    }
  }
  return [...byPath.values()];
}
