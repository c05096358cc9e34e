import * as vscode from "vscode";
import type { SessionReader } from "../core/session/session-reader";
import type { SessionsView } from "./sessions-view";
import { clipText, visibleText } from "../core/util/visible-text";

/** Quick pick of a session file (newest first); undefined when dismissed. */
export async function pickSession(view: SessionsView, title: string): Promise<vscode.Uri | undefined> {
  await view.refresh();
  const items = view.allSessions().map((s) => ({
    label: visibleText(clipText(s.name ?? (s.firstMessage || "(no messages)"), 300)),
    description: visibleText(s.cwd),
    detail: visibleText(s.path),
    uri: vscode.Uri.file(s.path),
  }));
  const browse = { label: "$(folder-opened) Browse for a session file…", description: "", detail: "", uri: undefined as vscode.Uri | undefined };
  const picked = await vscode.window.showQuickPick([...items, browse], { title, matchOnDescription: true, matchOnDetail: true });
  if (!picked) return undefined;
  if (picked.uri) return picked.uri;
  const files = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { "Session files": ["jsonl"] }, title });
  return files?.[0];
}

/** Quick pick of an entry: conversation entries, newest first, the leaf marked. */
/** Kinds worth picking an entry by (tool output and bookkeeping are left out). */
const PICKABLE = new Set(["user", "assistant", "shell", "injected", "summary", "boundary", "branch-summary", "tool-call"]);

export async function pickEntry(session: SessionReader, title: string): Promise<string | undefined> {
  const tree = session.tree;
  const format = session.format;
  const leaf = format.defaultLeaf(session);
  const items: Array<vscode.QuickPickItem & { id: string }> = [];
  for (let i = session.metas.length - 1; i >= 0 && items.length < 2000; i--) {
    const d = format.describe(session, i);
    if (!PICKABLE.has(d.kind)) continue;
    const m = session.metas[i];
    const label = tree.labels.get(m.id);
    items.push({
      id: m.id,
      label: visibleText(`${d.label}: ${(d.preview ?? m.preview) || "(empty)"}`),
      description: visibleText(`${m.id}${label ? ` [${clipText(label, 200)}]` : ""}${i === leaf ? " · leaf" : ""}`),
    });
  }
  const picked = await vscode.window.showQuickPick(items, { title, matchOnDescription: true });
  return picked?.id;
}
