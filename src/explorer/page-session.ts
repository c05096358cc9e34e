import type { PageIndex } from "../core/export/html-data";
import { VISIBILITIES } from "../core/export/html-data";
import type { EntryDescription } from "../core/session/entry-kinds";
import type { SessionReader } from "../core/session/session-reader";
import type { EntryMeta } from "../core/store/entry-meta";
import { SessionTree } from "../core/tree/session-tree";

/** What the tree and RowView read of an entry's index line. */
interface StaticMeta {
  id: string;
  parentId: string | null;
  line: number;
  /** Only children of a branch point carry their time: the tree orders siblings by it. */
  time: number;
  preview: string;
  estimate: number;
  tokensBefore?: number;
  firstKeptEntryId?: string;
}

/**
 * An exported page's session, shaped as the slice of SessionReader that RowView reads
 * (the tree, metas, the format's description of each entry, the default leaf), so the
 * page draws, filters, folds and searches its rows with the explorer's own RowView over
 * the core's own SessionTree. Built once from the page's index.
 */
export function staticSession(idx: PageIndex): SessionReader {
  const times = new Map(idx.branchTimes);
  const metas: StaticMeta[] = idx.ids.map((id, i) => {
    const p = idx.preview[i];
    const parent = idx.parent[i];
    return { id, parentId: parent < 0 ? null : idx.ids[parent], line: i + 1, time: times.get(i) ?? Number.NaN, preview: p === 0 ? idx.text[i] : p, estimate: idx.estimate[i] };
  });
  const tree = new SessionTree(metas as unknown as EntryMeta[]);
  for (const [i, label] of idx.tags) tree.labels.set(idx.ids[i], label);
  for (const [i, before, kept] of idx.compactions) {
    metas[i].tokensBefore = before;
    if (kept !== null) metas[i].firstKeptEntryId = kept;
  }
  const errors = new Set(idx.errors);
  const broken = new Map(idx.brokenParents);
  const inline = new Map(idx.inlineRoots);
  const describe = (i: number): EntryDescription => ({
    kind: idx.kinds[idx.kind[i]] as EntryDescription["kind"],
    label: idx.labels[idx.label[i]],
    ...(idx.typeName[i] >= 0 ? { typeName: idx.typeNames[idx.typeName[i]] } : {}),
    // The row's text as the explorer worded it at export (cwd-relative paths included).
    preview: idx.text[i],
    visibility: VISIBILITIES[idx.visibility[i]] ?? "all",
    ...(errors.has(i) ? { isError: true } : {}),
  });
  const session = {
    path: idx.init.session.path,
    tree,
    metas,
    // No tool calls are marked: the row texts are already relative to the cwd.
    table: { toolCalls: [] as unknown[], parentIdAt: (i: number) => broken.get(i) ?? null },
    format: {
      id: idx.init.session.format,
      agent: idx.init.session.agent,
      describe: (_s: unknown, i: number) => describe(i),
      defaultLeaf: () => idx.defaultLeaf,
      info: () => ({ cwd: idx.init.session.cwd }),
      subagents: { inlineRoots: () => inline },
    },
    requireIndex(id: string): number {
      const i = tree.indexOf(id);
      if (i === undefined) throw new Error(`no entry with id ${JSON.stringify(id.slice(0, 80))} in this page`);
      return i;
    },
  };
  // RowView reads only the fields above (tree-rows.ts, row-view.ts); the rest of a reader
  // (files, byte ranges, writers) has no meaning in a page.
  return session as unknown as SessionReader;
}
