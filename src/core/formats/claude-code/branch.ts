import { writeNewSession } from "../../store/atomic-file";
import { newSessionId } from "../../store/ids";
import { jsonTextDeeperThan } from "../../util/json-depth";
import { forEachMarkedLine } from "../../util/marked-lines";
import type { ForkResult } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { claudeCodeChain } from "./chain";
import { claudeCodeInfo } from "./info";
import { asLine, blocksOf, str } from "./lines";

const TITLE_CHARS = 60;

/**
 * The session's title as Claude Code reads it: the last custom-title, else the last
 * ai-title. Metadata lines are not entries, so the file is scanned once, in chunks, and
 * only lines naming a title type are parsed.
 */
export function readTitle(path: string): string | undefined {
  return readMetadata(path).title;
}

/** Metadata lines /branch copies into the branch (claude-code-format.md 12): what a re-sent tool result looks like. */
const COPIED_METADATA = new Set(["content-replacement"]);

/**
 * The title as Claude Code reads it (the last custom-title, else the last ai-title) and
 * the metadata lines /branch copies, in file order. Metadata lines are not entries, so the
 * file is scanned once, in chunks, and only lines naming such a type are parsed.
 */
export function readMetadata(path: string): { title?: string; copied: Array<Record<string, unknown>> } {
  let custom: string | undefined;
  let ai: string | undefined;
  const copied: Array<Record<string, unknown>> = [];
  const take = (line: string) => {
    // Too deep to copy (JSON.stringify would overflow): the reader reports such a line.
    if (jsonTextDeeperThan(line)) return;
    try {
      const o = JSON.parse(line) as Record<string, unknown>;
      if (o.type === "custom-title" && str(o.customTitle)) custom = o.customTitle as string;
      else if (o.type === "ai-title" && str(o.aiTitle)) ai = o.aiTitle as string;
      else if (typeof o.type === "string" && COPIED_METADATA.has(o.type)) copied.push(o);
    } catch {
      // A bad line names no title; the reader reports it.
    }
  };
  forEachMarkedLine(path, ["-title", "content-replacement"], take);
  const title = custom ?? ai;
  return { ...(title !== undefined ? { title } : {}), copied };
}

/** With no title: the first prompt of the branch, cut short (our choice; Claude Code's own is unknown). */
function firstPrompt(records: ReadonlyArray<Record<string, unknown>>): string {
  for (const r of records) {
    const l = asLine(r);
    if (l.type !== "user" || l.isMeta === true || l.isCompactSummary === true) continue;
    const t = blocksOf(l.message?.content).find((b) => b.type === "text" && typeof b.text === "string");
    if (t) return (t.text as string).replace(/\s+/g, " ").trim().slice(0, TITLE_CHARS);
  }
  return "conversation";
}

/**
 * What Claude Code's `/branch` writes (claude-code-format.md 12), for the chain it loads
 * at an entry: a new `<sessionId>.jsonl` beside the source (or in `opts.dir`) with the
 * chain's lines, same uuids, parents rebuilt as one line in write order (a progress line
 * is never a parent), the new sessionId, and `forkedFrom {sessionId, messageUuid}` on
 * every line; then the content-replacement lines (stubs of large tool outputs, which
 * decide what a re-sent result looks like) under the new sessionId, and a custom-title
 * "<title> (Branch)". File-history snapshots and other metadata lines are not copied.
 * Written to a hidden temp file and linked into place: never half a file, never over an
 * existing one; the source is only read.
 */
export function branchClaudeCode(session: SessionReader, entryId: string, opts: { dir?: string; now?: Date } = {}): ForkResult {
  const at = session.requireIndex(entryId);
  const source = claudeCodeInfo(session).id;
  const sessionId = newSessionId();
  const records: Array<Record<string, unknown>> = [];
  let parent: string | null = null;
  for (const i of claudeCodeChain(session, at)) {
    const line = session.entryAt(i);
    const uuid = session.table.idAt(i);
    // Spread keeps the key order Claude Code wrote; forkedFrom goes last, as /branch adds it.
    records.push({ ...line, parentUuid: parent, sessionId, forkedFrom: { sessionId: str(line.sessionId) ?? source, messageUuid: uuid } });
    if (line.type !== "progress") parent = uuid;
  }
  const meta = readMetadata(session.path);
  const title = `${meta.title ?? firstPrompt(records)} (Branch)`;
  const copied = meta.copied.map((m) => (m.sessionId !== undefined ? { ...m, sessionId } : m));
  const lines = [...records, ...copied, { type: "custom-title", customTitle: title, sessionId }].map((r) => JSON.stringify(r));
  const target = writeNewSession(session.path, opts.dir, `${sessionId}.jsonl`, lines);
  return { path: target, sessionId, entryCount: records.length };
}
