import { z } from "zod";
import { type OtherContextFormat, renderFormatContext } from "../core/context/format-context";
import { treeRows } from "../core/formats/tree-rows";
import type { SessionReader } from "../core/session/session-reader";
import type { PriceOverrides } from "../core/tokens/prices";
import { sessionCost } from "../core/usage/session-cost";
import { PAGE_CHARS, type PagedResults } from "./paging";
import { entryAt, type SessionSource } from "./session-source";
import { cursorField, limitField, sessionField } from "./tool-inputs";

const CONTEXT_FORMATS = ["native", "anthropic", "xml"] as const;

export const getContextInput = () =>
  z.strictObject({
    session: sessionField,
    entryId: z.string().min(1).max(512).optional().describe("the leaf whose context to build (default: the session's own leaf)"),
    format: z.enum(CONTEXT_FORMATS).optional().describe("native: the agent's own messages; anthropic: a Messages API request body; xml: tagged chunks by kind (default anthropic)"),
    cursor: cursorField,
  });

/** The context as the format renders it: its own request for formats that have one, else the neutral rendering. */
function renderContext(session: SessionReader, leaf: number, format: OtherContextFormat): { request: unknown; notes: string[] } {
  const f = session.format;
  if (f.contextRequest) return f.contextRequest(session, leaf, format, {});
  return { request: renderFormatContext(session, leaf, format), notes: [] };
}

/**
 * The context of an entry as JSON text, in parts of PAGE_CHARS characters: a context can
 * be megabytes (tool output, pasted files); the parts joined are the whole JSON.
 */
export async function getContext(sessions: SessionSource, pages: PagedResults, args: z.infer<ReturnType<typeof getContextInput>>) {
  const format = args.format ?? "anthropic";
  const page = await pages.page("get_context", { ...args, limit: 1 }, async () => {
    const session = await sessions.load(args.session);
    const leaf = entryAt(session, args.entryId, "entryId");
    const { request, notes } = renderContext(session, leaf, format);
    const text = JSON.stringify(request, null, 1);
    const parts: string[] = [];
    for (let i = 0; i < text.length || !parts.length; i += PAGE_CHARS) parts.push(text.slice(i, i + PAGE_CHARS));
    const head = { session: session.path, agent: session.format.id, leafId: session.metas[leaf]?.id ?? null, format, ...(notes.length ? { notes } : {}) };
    return { head, count: parts.length, itemAt: (i) => ({ part: i + 1, parts: parts.length, text: parts[i] }) };
  });
  const { text, ...part } = page.items[0] as { text: string; part: number; parts: number };
  return { meta: { ...page.head, ...part, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }, text };
}

export const getTreeInput = () =>
  z.strictObject({
    session: sessionField,
    all: z.boolean().optional().describe("every entry, bookkeeping ones included (default: the rows pi's /tree shows)"),
    leafId: z.string().min(1).max(512).optional().describe("the leaf whose path is marked active (default: the session's own leaf)"),
    limit: limitField,
    cursor: cursorField,
  });

/** A session's entries in tree order (root first, the active branch marked), paged. */
export async function getTree(sessions: SessionSource, pages: PagedResults, args: z.infer<ReturnType<typeof getTreeInput>>) {
  const page = await pages.page("get_tree", args, async () => {
    const session = await sessions.load(args.session);
    const leaf = entryAt(session, args.leafId, "leafId");
    const rows = treeRows(session, { all: args.all, leaf, nestInline: true });
    const metas = session.metas;
    const labels = session.tree.labels;
    return {
      head: { session: session.path, agent: session.format.id, name: session.tree.name ?? null, leafId: metas[leaf]?.id ?? null, problems: session.problemCount },
      count: rows.length,
      itemAt: (i) => {
        const r = rows[i];
        const m = metas[r.index];
        const d = session.format.describe(session, r.index);
        const label = labels.get(m.id);
        return { id: m.id, parentId: m.parentId, kind: d.kind, text: d.preview ?? m.preview, ...(m.timestamp ? { timestamp: m.timestamp } : {}), tokens: m.estimate, ...(label ? { label } : {}), children: session.tree.childCount(r.index), depth: r.depth, onActivePath: r.onActivePath };
      },
    };
  });
  return { ...page.head, entries: page.items, offset: page.offset, total: page.total, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

export const sessionCostInput = () => z.strictObject({ session: sessionField });

/** What a session cost in USD: in total, by model, day and branch (recorded where the agent recorded it, else priced). */
export async function getSessionCost(sessions: SessionSource, prices: PriceOverrides | undefined, args: z.infer<ReturnType<typeof sessionCostInput>>) {
  const session = await sessions.load(args.session);
  const format = session.format;
  const cost = sessionCost(session, format, { prices });
  const defaultLeaf = format.defaultLeaf(session);
  return {
    session: session.path,
    agent: format.id,
    currency: "USD",
    total: cost.total,
    byModel: cost.byModel,
    byDay: cost.byDay,
    byBranch: cost.byBranch.map(({ leaf, ...b }) => ({ ...b, default: leaf === defaultLeaf })),
    unpricedModels: cost.unpricedModels,
    inherited: cost.inherited,
    unreadableUsage: cost.unreadableUsage.length,
  };
}
