import { addPair, type EntryView, messageEntryView } from "../../session/entry-view";
import type { SessionReader } from "../../session/session-reader";
import { type ClawdcodeLine, isCompactBoundary, lineMessage } from "./lines";

/** A clawdcode line for the detail pane: its message's blocks, and for a compact boundary what it did. */
export function clawdcodeDetails(session: SessionReader, i: number): EntryView {
  const line = session.entryAt(i) as unknown as ClawdcodeLine;
  const m = (line.message ?? {}) as { model?: unknown; usage?: Record<string, unknown> };
  const meta: Array<[string, unknown]> = [
    ["line", session.metas[i].line],
    ["time", line.timestamp],
    ["parent", line.parentUuid],
    ["model", m.model],
    ["usage", m.usage ? `input ${Number(m.usage.input_tokens ?? 0)}, output ${Number(m.usage.output_tokens ?? 0)}` : undefined],
    ["git branch", line.gitBranch],
    ["version", line.version],
  ];
  if (isCompactBoundary(line)) {
    const c = (line.compactMetadata ?? {}) as { trigger?: unknown; preTokens?: unknown; postTokens?: unknown; filesIncluded?: unknown };
    const view: EntryView = { meta: [], blocks: [{ kind: "summary", text: `compact boundary (${String(c.trigger ?? "?")}): ${String(c.preTokens ?? "?")} tokens before, ${String(c.postTokens ?? "?")} after` }] };
    for (const [k, v] of meta) addPair(view, k, v);
    const files = Array.isArray(c.filesIncluded) ? c.filesIncluded.filter((f): f is string => typeof f === "string") : [];
    addPair(view, "files included", files.join(", "));
    view.compaction = { summary: "", readFiles: files, modifiedFiles: [], tokensBefore: Number(c.preTokens ?? 0) || 0 };
    return view;
  }
  const message = lineMessage(line);
  const view = messageEntryView(line as unknown as Record<string, unknown>, message, meta);
  if (line.isCompactSummary) for (const b of view.blocks) if (b.kind === "text") b.kind = "summary";
  // The model sees a failed tool's output only; the pane shows the error the line records too.
  const error = (line.toolResult as { error?: unknown } | undefined)?.error;
  if (error !== undefined && error !== false && error !== null) {
    for (const b of view.blocks) {
      if (b.kind !== "toolResult") continue;
      b.isError = true;
      b.text = [b.text, `error: ${typeof error === "string" ? error : JSON.stringify(error)}`].filter(Boolean).join("\n");
    }
  }
  return view;
}
