import { basename } from "node:path";
import { HookedSession } from "../../session/jsonl-session";
import { type EntryDescription, type EntryKind, KIND_LABELS } from "../../session/entry-kinds";
import type { ContextMessage, FirstLines, FormatContext, SessionFormat } from "../../session/session-format";
import type { SessionInfo, SessionReader } from "../../session/session-reader";
import { SEED000_ID, seed000IndexHooks } from "./index-hooks";
import { isSeed000Type, looksLikeSeed000, type Seed000Type } from "./line";
import { seed000Strategies } from "./context-strategies";
import { seed000Files } from "./files";
import { messageEntryView } from "../../session/entry-view";
import { entryToMessage, PART_KIND } from "./messages";
import { DEFAULT_MAX_TOKENS } from "./strategies";
import { seed000Writer } from "./writer";
import { seed000SearchHooks } from "./search-text";

const KIND: Record<Seed000Type, EntryKind> = {
  user: "user",
  assistant: "assistant",
  tool_call: "tool-call",
  tool_result: "tool-result",
};

/**
 * A tool result counts as an error when its content starts with "Error" (the seed's
 * tools answer "Error: ..."; a test log that merely mentions a TypeError is output, not
 * a failed call). Read from the preview, which is the content's start with leading
 * whitespace dropped, so rows need no read of the entry. smart's importance rule is
 * another matter (any "error"/"Error" in the JSON): see strategies.ts.
 */
export const ERROR_PREFIX = "Error";

/** The session id: the file name without .jsonl (the lines carry none). */
export function sessionIdOf(path: string): string {
  return basename(path).replace(/\.jsonl$/, "");
}

/** Seed 000: plain id/parentId JSONL (claude-code-format.md 15.1). */
export const seed000Format: SessionFormat = {
  id: SEED000_ID,
  agent: seed000IndexHooks.agent,

  detect(first: FirstLines): boolean {
    return first.objects.length > 0 && looksLikeSeed000(first.objects[0]);
  },

  index: seed000IndexHooks,

  load: (path, opts) => HookedSession.open(path, seed000IndexHooks, opts),

  info(session: SessionReader): SessionInfo {
    let cwd = "";
    if (session.metas.length) {
      const meta = session.entryAt(0).metadata as Record<string, unknown> | undefined;
      if (meta && typeof meta.cwd === "string") cwd = meta.cwd;
    }
    return { id: sessionIdOf(session.path), cwd };
  },

  /** The last line, as the goldens resume (-1 for an empty session). */
  defaultLeaf(session: SessionReader): number {
    return session.metas.length - 1;
  },

  describe(session: SessionReader, i: number): EntryDescription {
    const m = session.metas[i];
    const type = m.type;
    if (!isSeed000Type(type)) return { kind: "other", label: KIND_LABELS.other, typeName: type, visibility: "all" };
    const d: EntryDescription = { kind: KIND[type], label: KIND_LABELS[KIND[type]], typeName: type, visibility: type === "user" ? "user" : "conversation" };
    if (type === "tool_result" && m.preview.startsWith(ERROR_PREFIX)) d.isError = true;
    return d;
  },

  /** Root first along parentId; one message per entry, no merging. */
  context(session: SessionReader, leaf: number): FormatContext {
    if (leaf < 0) return { leafId: null, messages: [] };
    const messages: ContextMessage[] = session.tree.path(leaf).map((i) => {
      const e = session.entryAt(i);
      return { entryId: session.metas[i].id, kind: PART_KIND[e.type as Seed000Type], message: entryToMessage(e) };
    });
    return { leafId: session.metas[leaf].id, messages };
  },

  details(session, i) {
    const e = session.entryAt(i);
    const meta = (e.metadata ?? {}) as Record<string, unknown>;
    const usage = meta.usage as Record<string, unknown> | undefined;
    return messageEntryView(e, entryToMessage(e), [
      ["line", session.metas[i].line],
      ["time", typeof e.timestamp === "number" ? new Date(e.timestamp).toISOString() : e.timestamp],
      ["parent", e.parentId],
      ["model", meta.model],
      ["usage", usage ? `input ${Number(usage.input_tokens ?? 0)}, output ${Number(usage.output_tokens ?? 0)}` : undefined],
    ]);
  },

  files: seed000Files,

  strategies: seed000Strategies,

  // The design shrinks a context above maxTokens (180,000 by default), whatever the window.
  compactThreshold: () => DEFAULT_MAX_TOKENS,

  search: seed000SearchHooks,
  writer: seed000Writer,
};
