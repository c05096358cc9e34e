import { basename } from "node:path";
import { openSession } from "../core/formats/registry";
import type { SubagentRef } from "../core/session/entry-view";
import type { SessionReader } from "../core/session/session-reader";
import type { PriceOverrides } from "../core/tokens/prices";
import type { EntryAction, EntryDetails, Row, RowFilter } from "../protocol";
import { entryDetails, subagentView } from "./entry-details";
import { RowView, type ShownRow } from "./row-view";
import { inlineSubagentFigures, subagentFigures, type SubagentFigures } from "./subagent-figures";

const ACTIONS: readonly EntryAction[] = ["fork", "continue", "label", "previewContext", "compareContext", "compactionChange", "compact"];

/** One sub-agent of an expanded call: the rows of its own transcript or of its lines inline in the session, or why there are none. */
interface Opened {
  ref: SubagentRef;
  session?: SessionReader;
  view?: RowView;
  note?: string;
  /** Its rows as last built, for the filter they were built with (rebuilt when it changes). */
  built?: { filter: RowFilter; rows: Row[] };
}

/** What a nested row's id stands for: an entry of a sub-agent's, or the note of a sub-agent with nothing to show. */
type Place = { callId: string; agentId: string; inline: boolean } & ({ session: SessionReader; index: number } | { note: string });

/** A nested row's id: the sub-agent's and the entry's, so ids of a transcript read twice or of two sub-agents never meet. */
const nestedId = (agentId: string, entryId: string) => `sub:${agentId}:${entryId}`;

/** Why nothing is done to a sub-agent's entry from its parent's panel. */
function refusals(inline: boolean): Partial<Record<EntryAction, string>> {
  const why = inline
    ? "a sub-agent's line written inline: it is not part of this session's conversation"
    : "an entry of a sub-agent's own transcript: open that transcript (its call's details) to act on it";
  return Object.fromEntries(ACTIONS.map((a) => [a, why]));
}

/**
 * The sub-agents shown nested under the calls that started them (issue 24, item 8): a call
 * row carries a cue and expands into the sub-agent's own rows, read when expanded (a file
 * sub-agent's transcript is opened then, not when the session loads). The rows are built
 * by a RowView of their own (the sub-agent's file, or the subtree of its inline lines),
 * then indented under the call, given ids of their own and made read-only.
 */
export class SubagentNesting {
  /** Expanded calls, by entry id: their sub-agents, opened. */
  private readonly open = new Map<string, Opened[]>();
  /** Figures read so far, by agent id: the call row keeps showing them when folded again. */
  private readonly figures = new Map<string, SubagentFigures>();
  private places = new Map<string, Place>();
  /**
   * The sub-agents each row started, as last looked up: finding a transcript walks the
   * session's subagents folder, which a page of rows would otherwise do for every call on
   * it. Looked up again when the session grows (a sub-agent still running writes its file).
   */
  private known = new WeakMap<SessionReader, { count: number; refs: Map<number, SubagentRef[]> }>();

  /** Forget everything (a new load of the session). */
  reset(): void {
    this.open.clear();
    this.known = new WeakMap();
    this.places.clear();
  }

  /** The cue of a row whose entry started sub-agents, or undefined. */
  cue(session: SessionReader, i: number): Row["subagents"] {
    const refs = this.refs(session, i);
    if (!refs.length) return undefined;
    const agents = refs.map((r) => {
      const f = this.figures.get(r.agentId);
      return f ? { ...subagentView(r), figures: f } : subagentView(r);
    });
    return { expanded: this.open.has(session.metas[i].id), agents };
  }

  private refs(session: SessionReader, i: number): SubagentRef[] {
    let k = this.known.get(session);
    if (!k || k.count !== session.metas.length) this.known.set(session, (k = { count: session.metas.length, refs: new Map() }));
    let refs = k.refs.get(i);
    if (!refs) k.refs.set(i, (refs = session.format.subagents?.startedBy(session, i) ?? []));
    return refs;
  }

  /** Shows (reading its transcripts now) or hides the sub-agents entry i started. */
  async expand(session: SessionReader, i: number, expand: boolean, prices: PriceOverrides | undefined): Promise<void> {
    const id = session.metas[i].id;
    if (!expand) {
      this.open.delete(id);
      return;
    }
    if (this.open.has(id)) return;
    // Looked up anew: the transcript may have been written since the row was drawn.
    this.known.get(session)?.refs.delete(i);
    const refs = this.refs(session, i);
    if (!refs.length) throw new Error(`${session.path}: entry ${JSON.stringify(id).slice(0, 100)} started no sub-agent`);
    this.open.set(id, await Promise.all(refs.map((r) => this.openOne(session, r, prices))));
  }

  private async openOne(session: SessionReader, ref: SubagentRef, prices: PriceOverrides | undefined): Promise<Opened> {
    if (ref.inlineEntryId !== undefined) return this.openInline(session, ref, prices);
    if (ref.path === undefined) return { ref, note: `Its transcript (agent-${ref.agentId}.jsonl) is not beside the session.` };
    try {
      const sub = await openSession(ref.path);
      try {
        this.figures.set(ref.agentId, await subagentFigures(ref.path, prices));
      } catch {
        // The rows show without figures: the transcript was read, its cost could not be.
      }
      return { ref, session: sub, view: new RowView(sub) };
    } catch (err) {
      return { ref, note: `Its transcript could not be read: ${(err as Error).message}` };
    }
  }

  private openInline(session: SessionReader, ref: SubagentRef, prices: PriceOverrides | undefined): Opened {
    const root = session.tree.indexOf(ref.inlineEntryId as string);
    if (root === undefined) return { ref, note: "Its lines are no longer in the session." };
    this.figures.set(ref.agentId, inlineSubagentFigures(session, root, prices));
    return { ref, session, view: new RowView(session, root) };
  }

  /**
   * A line of a sub-agent written inline, shown: its call expanded (no file is read for
   * it), so the line's nested row is in the view. The nested row's id and the call's
   * position, or undefined when the line belongs to no inline sub-agent.
   */
  expandInlineAround(session: SessionReader, entry: number, prices: PriceOverrides | undefined): { id: string; call: number } | undefined {
    const roots = session.format.subagents?.inlineRoots(session);
    if (!roots?.size) return undefined;
    let root = entry;
    for (let k = 0; session.tree.parent[root] >= 0 && k < session.metas.length; k++) root = session.tree.parent[root];
    const call = roots.get(root);
    if (call === undefined) return undefined;
    const callId = session.metas[call].id;
    const rootId = session.metas[root].id;
    const subs = this.open.get(callId) ?? [];
    if (!subs.some((o) => o.ref.inlineEntryId === rootId)) {
      const ref = session.format.subagents?.startedBy(session, call).find((r) => r.inlineEntryId === rootId);
      if (!ref) return undefined;
      this.open.set(callId, [...subs, this.openInline(session, ref, prices)]);
    }
    return { id: nestedId(rootId, session.metas[entry].id), call };
  }

  /** The rows with each expanded call's sub-agent rows inserted after it. */
  splice(session: SessionReader, rows: ShownRow[], filter: RowFilter): ShownRow[] {
    this.places = new Map();
    if (!this.open.size) return rows;
    const out: ShownRow[] = [];
    for (const r of rows) {
      out.push(r);
      const callId = r.index >= 0 ? session.metas[r.index].id : undefined;
      const subs = callId === undefined ? undefined : this.open.get(callId);
      if (!subs || callId === undefined) continue;
      for (const o of subs) {
        const inline = o.ref.inlineEntryId !== undefined;
        // Several sub-agents of one call each get a head row; one with nothing to show, a row saying why.
        if (subs.length > 1 || !o.view) out.push(shown(this.head(r, callId, o, inline)));
        if (!o.view || !o.session) continue;
        const base = r.depth + (subs.length > 1 ? 2 : 1);
        for (const row of this.rowsOf(o, filter)) {
          const id = nestedId(o.ref.agentId, row.id);
          this.places.set(id, { callId, agentId: o.ref.agentId, inline, session: o.session, index: o.session.tree.indexOf(row.id) ?? -1 });
          out.push(shown({ ...row, id, depth: base + row.depth, onActivePath: false, isActiveLeaf: false, isDefaultLeaf: false, childCount: 0, folded: false, nested: { callId, agentId: o.ref.agentId, indent: base } }));
        }
      }
    }
    return out;
  }

  private rowsOf(o: Opened, filter: RowFilter): Row[] {
    const view = o.view as RowView;
    if (o.built?.filter !== filter) {
      view.setFilter(filter);
      o.built = { filter, rows: view.page(0, view.rowCount) };
    }
    return o.built.rows;
  }

  /** The row naming one sub-agent of a call (which one, or why nothing of it shows). */
  private head(call: ShownRow, callId: string, o: Opened, inline: boolean): Row {
    const id = nestedId(o.ref.agentId, "");
    const what = `Agent${o.ref.agentType ? ` (${o.ref.agentType})` : ""}${o.ref.description ? `: ${o.ref.description}` : ""}`;
    this.places.set(id, { callId, agentId: o.ref.agentId, inline, note: o.note ?? what });
    return {
      id,
      prefix: "",
      depth: call.depth + 1,
      kind: o.note ? "info" : "tool-call",
      typeLabel: "Sub-agent",
      preview: o.note ? `${what}. ${o.note}` : what,
      tokens: 0,
      onActivePath: false,
      isActiveLeaf: false,
      isDefaultLeaf: false,
      childCount: 0,
      folded: false,
      nested: { callId, agentId: o.ref.agentId, indent: call.depth + 1 },
    };
  }

  /** The call a nested row hangs under, or undefined for any other id. */
  callOf(id: string): string | undefined {
    return this.places.get(id)?.callId;
  }

  /** Why an action cannot run on a nested row, or undefined for any other id. */
  refusal(action: EntryAction, id: string): string | undefined {
    const p = this.places.get(id);
    return p && refusals(p.inline)[action];
  }

  /** A nested row's details (its entry in the sub-agent's session, its actions refused), or undefined for any other id. */
  details(id: string, fullBlock?: number): EntryDetails | undefined {
    const p = this.places.get(id);
    if (!p) return undefined;
    const unavailable = refusals(p.inline);
    if ("note" in p) return { id, kind: "info", typeLabel: "Sub-agent", timestamp: "", line: 0, meta: [["agent", p.agentId]], blocks: [{ kind: "text", text: p.note }], unavailable };
    const d = entryDetails(p.session, p.index, fullBlock);
    // Its line number is in the sub-agent's transcript (or, inline, in this file): said first.
    const where = p.inline ? "written inline in this session's file" : `its own transcript, ${basename(p.session.path)}`;
    return { ...d, id, meta: [["sub-agent", `${p.agentId} (${where})`], ...d.meta], unavailable };
  }
}

function shown(row: Row): ShownRow {
  return { index: -1, prefix: row.prefix, depth: row.depth, onActivePath: false, isLeaf: true, isActiveLeaf: false, nested: row };
}
