import type { CompactionFacts } from "../../session/entry-view";
import type { SessionReader } from "../../session/session-reader";
import { claudeCodeFiles } from "./files";
import { asLine, contentText, type ClaudeLine, str } from "./lines";

/** The summary user line written under a boundary (isCompactSummary), as its text. */
function summaryUnder(session: SessionReader, boundary: number): string {
  for (const c of session.tree.children(boundary)) {
    const l = asLine(session.entryAt(c));
    if (l.type === "user" && l.isCompactSummary === true) return contentText(l.message?.content);
  }
  return "";
}

/** The first message the compaction kept from before it (partial compact), if any. */
function firstKept(l: ClaudeLine): string | undefined {
  const meta = l.compactMetadata;
  const uuids = meta?.preservedMessages?.uuids;
  if (Array.isArray(uuids) && typeof uuids[0] === "string") return uuids[0];
  return str(meta?.preservedSegment?.headUuid);
}

/** The last message the compaction kept (partial compact), if any: the chain goes on from it. */
function lastKept(l: ClaudeLine): string | undefined {
  const meta = l.compactMetadata;
  const uuids = meta?.preservedMessages?.uuids;
  if (Array.isArray(uuids) && uuids.length && typeof uuids[uuids.length - 1] === "string") return uuids[uuids.length - 1] as string;
  return str(meta?.preservedSegment?.tailUuid);
}

/** The line a boundary names as its logical parent (the last one before it), or -1 when it names none in the file. */
export function claudeCodeCompactionParent(session: SessionReader, i: number): number {
  const id = str(asLine(session.entryAt(i)).logicalParentUuid);
  return id === undefined ? -1 : (session.tree.indexOf(id) ?? -1);
}

/**
 * What a compact boundary did (claude-code-format.md 9): manual or auto, the context size
 * before and after (compactMetadata), the summary Claude Code wrote under it, and what it
 * summarized: the user and assistant lines of the chain up to its logical parent (the
 * preserved ones excepted) and the files their tool calls read and changed.
 */
export function claudeCodeCompaction(session: SessionReader, i: number): CompactionFacts {
  const l = asLine(session.entryAt(i));
  const meta = l.compactMetadata;
  const parentId = str(l.logicalParentUuid);
  const parent = parentId === undefined ? undefined : session.tree.indexOf(parentId);
  const before = parent === undefined ? [] : session.tree.path(parent);
  const keptFrom = firstKept(l);
  const keptTo = lastKept(l);
  const cut = keptFrom === undefined ? -1 : before.findIndex((k) => session.metas[k].id === keptFrom);
  const summarized = (cut < 0 ? before : before.slice(0, cut)).filter((k) => {
    const role = session.table.roleAt(k);
    return role === "user" || role === "assistant";
  });
  const files = claudeCodeFiles(session, summarized);
  const post = meta?.postTokens;
  return {
    summary: summaryUnder(session, i),
    readFiles: files.filter((f) => f.read > 0 && !f.written && !f.edited).map((f) => f.path),
    modifiedFiles: files.filter((f) => f.written > 0 || f.edited > 0).map((f) => f.path),
    tokensBefore: typeof meta?.preTokens === "number" ? meta.preTokens : 0,
    ...(typeof post === "number" ? { tokensAfter: post } : {}),
    ...(str(meta?.trigger) ? { trigger: str(meta?.trigger) } : {}),
    summarizedEntries: summarized.length,
    ...(parentId !== undefined && parent === undefined ? { missingParent: parentId } : {}),
    ...(keptFrom !== undefined ? { firstKeptEntryId: keptFrom } : {}),
    ...(keptTo !== undefined ? { lastKeptEntryId: keptTo } : {}),
  };
}
