import { FileTally } from "../../session/file-tally";
import type { FileActivity } from "../../session/session-format";
import { TOOL_KIND } from "./file-tools";
import type { Session } from "./pi-session";

export type FileOpKind = "read" | "written" | "edited" | "modified";

export type { FileActivity } from "../../session/session-format";

/**
 * Files read, written and edited by the entries at the given positions (in order), from
 * read/write/edit tool calls and from summary `details` ({readFiles, modifiedFiles}),
 * in the order first touched. Only assistant messages with tool calls and summaries
 * are read from disk.
 */
export function fileActivity(session: Session, positions: readonly number[]): FileActivity[] {
  const tally = new FileTally();
  for (const i of positions) {
    const meta = session.metas[i];
    if (meta.type === "message" && meta.role === "assistant" && meta.toolCalls) {
      tallyCalls(tally, session.entryAt(i), meta.id);
    } else if (meta.type === "compaction" || meta.type === "branch_summary") {
      const entry = session.entryAt(i) as { details?: unknown; fromHook?: boolean };
      const d = entry.details as { readFiles?: unknown; modifiedFiles?: unknown } | undefined;
      if (!d || typeof d !== "object" || entry.fromHook) continue;
      for (const [list, kind] of [[d.readFiles, "read"], [d.modifiedFiles, "modified"]] as const) {
        if (!Array.isArray(list)) continue;
        for (const f of list) {
          if (typeof f === "string") tally.fromSummary(f, meta.id, kind);
        }
      }
    }
  }
  return tally.list();
}

/** The read, write and edit tool calls of an assistant's message (its entry, parsed), counted into `tally`. */
export function tallyCalls(tally: FileTally, entry: Record<string, unknown>, entryId: string): void {
  tallyBlocks(tally, (entry.message as { content?: unknown } | undefined)?.content, entryId);
}

/** tallyCalls of a message's content (its blocks, when it is a list). */
export function tallyBlocks(tally: FileTally, content: unknown, entryId: string): void {
  if (!Array.isArray(content)) return;
  for (const b of content as Array<Record<string, unknown>>) {
    if (!b || b.type !== "toolCall") continue;
    const kind = TOOL_KIND[String(b.name)];
    const args = b.arguments as Record<string, unknown> | undefined;
    if (!kind || !args || typeof args.path !== "string" || !args.path) continue;
    tally.touch(args.path, entryId)[kind]++;
  }
}

/** pi's compaction reads the neutral lists under their old name (h-compact's files, issue 26): the lead removes it at merge. */
export { fileLists as piFileLists } from "../../session/file-tally";
