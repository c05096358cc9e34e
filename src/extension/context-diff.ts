import * as vscode from "vscode";
import { compactionSides } from "../core/diff/compaction-change";
import { renderContextText } from "../core/diff/render-text";
import type { SessionReader } from "../core/session/session-reader";
import { clipText, visibleText } from "../core/util/visible-text";
import { quoted, sessionTitle } from "../core/util/session-title";
import { loadedTitleFacts } from "../core/formats/title-facts";
import type { ActionDeps } from "./actions";
import { DIFF_SCHEME } from "./context-preview";
import { pickSession } from "./pickers";
import type { SessionsView } from "./sessions-view";

/** One side of a comparison: a session file and a leaf in it (null: the empty context). */
export interface DiffSide {
  file: string;
  leafId: string | null;
}

/** What was opened: the two read-only documents of the diff editor. */
export interface ContextDiffResult {
  left: vscode.Uri;
  right: vscode.Uri;
}

const base = (file: string) => file.split(/[\\/]/).pop() ?? file;

/** A read-only document holding one side's context as text. */
function sideDoc(deps: ActionDeps, s: SessionReader, side: DiffSide, title: string, stamp: number): vscode.Uri {
  const leaf = side.leafId === null ? -1 : s.requireIndex(side.leafId);
  const uri = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${base(side.file)}-${side.leafId ?? "empty"}.context.md`, query: `t=${stamp}` });
  deps.diffs.set(uri, renderContextText({ session: s, leaf }, { title }));
  return uri;
}

async function openDiff(deps: ActionDeps, a: { s: SessionReader; side: DiffSide; title: string }, b: { s: SessionReader; side: DiffSide; title: string }, title: string): Promise<ContextDiffResult> {
  const stamp = Date.now();
  const left = sideDoc(deps, a.s, a.side, a.title, stamp);
  const right = sideDoc(deps, b.s, b.side, b.title, stamp + 1);
  await vscode.commands.executeCommand("vscode.diff", left, right, visibleText(title), { preview: false });
  return { left, right };
}

/** VS Code's diff editor on what the agent sends for leaf A (left) and leaf B (right). */
export async function compareContexts(deps: ActionDeps, a: DiffSide, b: DiffSide): Promise<ContextDiffResult> {
  const sa = await deps.session(a.file);
  const sb = b.file === a.file ? sa : await deps.session(b.file);
  // Each side by its words: the leaf's text (its id is in the header), the session's title when two are compared.
  const name = (side: DiffSide) => {
    const s = side.file === a.file ? sa : sb;
    const leaf = side.leafId === null ? "(empty)" : quoted(s.metas[s.requireIndex(side.leafId)].preview || side.leafId, 40);
    return `${side.file === a.file && side.file === b.file ? "" : `${quoted(sessionTitle(loadedTitleFacts(s), side.file), 40)} `}${leaf}`;
  };
  deps.log.info(`compare contexts: ${a.file} ${a.leafId} <-> ${b.file} ${b.leafId}`);
  return openDiff(deps, { s: sa, side: a, title: `Context of ${name(a)}` }, { s: sb, side: b, title: `Context of ${name(b)}` }, `Context: ${name(a)} ↔ ${name(b)}`);
}

/** The diff editor on the context just before a compaction (left) and just after it (right). */
export async function showCompactionChange(deps: ActionDeps, file: string, entryId: string): Promise<ContextDiffResult> {
  const s = await deps.session(file);
  const sides = compactionSides(s, s.requireIndex(entryId));
  const id = (i: number) => (i < 0 ? null : s.metas[i].id);
  const before = sides.missingParent ? `before ${entryId} (its parent ${sides.missingParent} is not in this file)` : `before ${entryId}`;
  return openDiff(
    deps,
    { s, side: { file, leafId: id(sides.before) }, title: `Context just ${before}` },
    { s, side: { file, leafId: id(sides.after) }, title: `Context just after ${entryId}` },
    `What compaction ${entryId} changed`,
  );
}

type LeafItem = vscode.QuickPickItem & { id?: string; other?: true };

/** Leaves of a session for a quick pick: the agent's default leaf first, then the others, newest first. */
export function leafItems(s: SessionReader, exclude?: string): LeafItem[] {
  const f = s.format;
  const def = f.defaultLeaf(s);
  const leaves = s.tree.leaves().filter((i) => i !== def).reverse();
  const items: LeafItem[] = [];
  for (const i of def >= 0 ? [def, ...leaves] : leaves) {
    const m = s.metas[i];
    if (m.id === exclude) continue;
    const d = f.describe(s, i);
    const label = s.tree.labels.get(m.id);
    items.push({
      id: m.id,
      label: visibleText(clipText(`${d.label}: ${(d.preview ?? m.preview) || "(empty)"}`, 300)),
      description: visibleText(`${m.id}${label ? ` [${clipText(label, 200)}]` : ""}${i === def ? " · the agent's leaf" : ""}`),
    });
    if (items.length >= 2000) break;
  }
  return items;
}

/** Asks for a leaf of a session; with `view`, offers another session's leaves too. Undefined when dismissed. */
export async function pickLeaf(deps: ActionDeps & { view?: SessionsView }, file: string, title: string, exclude?: string): Promise<DiffSide | undefined> {
  const s = await deps.session(file);
  const other: LeafItem = { label: "$(files) A leaf of another session…", description: "a fork, its source, any session file", other: true };
  const picked = await vscode.window.showQuickPick<LeafItem>([...leafItems(s, exclude), ...(deps.view ? [other] : [])], { title, matchOnDescription: true });
  if (!picked) return undefined;
  if (!picked.other) return { file, leafId: picked.id ?? null };
  const uri = deps.view ? await pickSession(deps.view, `${title}: which session?`) : undefined;
  if (!uri) return undefined;
  return pickLeaf({ ...deps, view: undefined }, uri.fsPath, title);
}

/** Asks for one of a session's compactions, newest first; undefined when it has none or the pick is dismissed. */
export async function pickCompaction(deps: ActionDeps, file: string): Promise<string | undefined> {
  const s = await deps.session(file);
  const f = s.format;
  const items: Array<vscode.QuickPickItem & { id: string }> = [];
  for (let i = s.metas.length - 1; i >= 0; i--) {
    if (f.describe(s, i).kind !== "boundary") continue;
    const m = s.metas[i];
    items.push({ id: m.id, label: visibleText(clipText(m.preview || "(a compaction)", 300)), description: visibleText(`${m.id} · ${m.timestamp ?? ""}`) });
  }
  if (!items.length) throw new Error(`${base(file)} holds no compaction.`);
  return (await vscode.window.showQuickPick(items, { title: "What did which compaction change?" }))?.id;
}
