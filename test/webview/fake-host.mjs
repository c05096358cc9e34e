// A fake extension host for the webview tests: it answers the protocol from an
// in-memory session the way the real host does (filter, folds, paging, search).

const HIDDEN_BY_DEFAULT = new Set(["label", "model_change", "thinking_level_change", "custom", "session_info"]);

function shown(entry, filter) {
  if (filter === "user") return entry.type === "message" && entry.role === "user";
  if (filter === "default") return !HIDDEN_BY_DEFAULT.has(entry.type);
  return true;
}

// The test sessions are written with pi's types and roles; the host speaks the protocol's
// neutral kinds, as the real host's formats do.
const ROLE_KINDS = { user: "user", assistant: "assistant", toolResult: "tool-result", bashExecution: "shell", custom: "injected", branchSummary: "branch-summary", compactionSummary: "summary" };
const TYPE_KINDS = { compaction: "boundary", branch_summary: "branch-summary", custom_message: "injected", label: "label", model_change: "model", thinking_level_change: "setting", session_info: "info", custom: "other" };

export function kindOf(x) {
  if (x.type === "message") return { kind: ROLE_KINDS[x.role] ?? "other", typeLabel: x.role ?? "(none)" };
  return { kind: TYPE_KINDS[x.type] ?? "other", typeLabel: x.type };
}

/** Session info as the real host sends it: agent and format, and why writing actions are off when read-only. */
export function sessionInfo(s) {
  const off = s.readOnly ? { continue: "the workspace is not trusted", label: "the workspace is not trusted", compact: "the workspace is not trusted" } : {};
  return { agent: "pi", format: "pi", unavailable: off, ...s };
}

/** Host for a session given as an entry list (small sessions: everything in memory). */
export class TreeHost {
  constructor(data) {
    this.data = data;
    this.filter = "default";
    this.folded = new Set();
    this.log = [];
    this.byId = new Map(data.entries.map((x) => [x.id, x]));
    this.kids = new Map();
    for (const x of data.entries) {
      const k = x.parentId ?? "";
      if (!this.kids.has(k)) this.kids.set(k, []);
      this.kids.get(k).push(x);
    }
    this.rebuild();
  }

  /** Visible children: hidden entries are passed through to their own children. */
  visibleKids(id) {
    const out = [];
    for (const c of this.kids.get(id) ?? []) {
      if (shown(c, this.filter)) out.push(c);
      else out.push(...this.visibleKids(c.id));
    }
    return out;
  }

  rebuild() {
    const rows = [];
    const walk = (x, indent, connector) => {
      const kids = this.visibleKids(x.id);
      rows.push(this.row(x, indent + connector, kids.length));
      if (this.folded.has(x.id)) return;
      const cont = connector === "" ? indent : indent + (connector.startsWith("├") ? "│  " : "   ");
      if (kids.length === 1) walk(kids[0], cont, "");
      else kids.forEach((k, i) => walk(k, cont, i === kids.length - 1 ? "└─ " : "├─ "));
    };
    const roots = this.visibleKids("");
    roots.forEach((r) => walk(r, "", roots.length > 1 ? (r === roots.at(-1) ? "└─ " : "├─ ") : ""));
    this.rows = rows;
  }

  row(x, prefix, childCount) {
    const r = {
      id: x.id,
      prefix,
      depth: Math.floor([...prefix].length / 3),
      ...kindOf(x),
      preview: x.preview,
      tokens: x.tokens,
      onActivePath: !!x.onActivePath,
      isActiveLeaf: x.id === this.data.activeLeaf,
      isDefaultLeaf: x.id === this.data.session.defaultLeafId,
      childCount,
      folded: this.folded.has(x.id),
    };
    if (x.label) r.label = x.label;
    if (x.compaction) r.compaction = { tokensBefore: x.compaction.tokensBefore, firstKeptEntryId: x.compaction.firstKeptEntryId };
    if (x.boundary) r.boundary = x.boundary;
    return r;
  }

  init() {
    return { type: "init", session: sessionInfo(this.data.session), rowCount: this.rows.length, filter: this.filter, bars: this.data.bars, ...(this.data.cost ? { cost: this.data.cost } : {}) };
  }

  details(id, fullBlock) {
    const x = this.byId.get(id);
    if (!x) throw new Error(`no entry ${id}`);
    const blocks = x.blocks.map((b, i) => {
      const { full, ...rest } = b;
      return full && fullBlock === i ? { ...rest, text: full, fullLength: undefined } : rest;
    });
    const d = { id, ...kindOf(x), timestamp: x.timestamp, line: this.data.entries.indexOf(x) + 2, meta: x.meta ?? [["timestamp", x.timestamp]], blocks };
    if (x.label) d.label = x.label;
    if (x.compaction) d.compaction = x.compaction;
    return d;
  }

  /**
   * The context timeline of a leaf's path, as the real core shapes it: a session may give
   * its own (data.timeline); else assistant steps grow by each entry's tokens (estimated
   * where the entry says estimatedSize), and a compaction drops to its own tokens.
   */
  timeline(leafId) {
    if (this.data.timeline) return this.data.timeline;
    if (!this.byId.has(leafId)) throw new Error(`no entry with id ${JSON.stringify(leafId)}`);
    const path = [];
    for (let x = this.byId.get(leafId); x; x = x.parentId ? this.byId.get(x.parentId) : undefined) path.unshift(x);
    const bar = this.data.bars[0] ?? { contextWindow: 200_000, threshold: 183_616 };
    const points = [];
    const compactions = [];
    let size = 0;
    path.forEach((x, index) => {
      if (x.type === "compaction") {
        const before = x.compaction?.tokensBefore ?? size;
        size = x.tokens;
        compactions.push({ entryId: x.id, index, time: x.timestamp, before, beforeSource: "recorded", after: size, afterSource: "estimated" });
        return;
      }
      size += x.tokens;
      if (x.role === "assistant") points.push({ entryId: x.id, index, time: x.timestamp, tokens: size, source: x.estimatedSize ? "estimated" : "recorded" });
    });
    return { leafId, model: "claude-sonnet-4-5", window: bar.contextWindow, threshold: bar.threshold, points, compactions };
  }

  /** Where an entry sits on the leaf's path, as the timeline's index counts (a given timeline: its own steps' places). */
  timelinePosition(leafId, id) {
    if (this.data.timeline) return [...this.data.timeline.points, ...this.data.timeline.compactions].find((x) => x.entryId === id)?.index ?? -1;
    const path = [];
    for (let x = this.byId.get(leafId); x; x = x.parentId ? this.byId.get(x.parentId) : undefined) path.unshift(x.id);
    return path.indexOf(id);
  }

  answer(m) {
    switch (m.type) {
      case "rows":
        return { start: m.start, rows: this.rows.slice(m.start, m.start + m.count), rowCount: this.rows.length };
      case "details":
        return this.details(m.id, m.fullBlock);
      case "setFilter":
        this.filter = m.filter;
        this.rebuild();
        return { rowCount: this.rows.length };
      case "toggleFold":
        if (this.folded.has(m.id)) this.folded.delete(m.id);
        else this.folded.add(m.id);
        this.rebuild();
        return { rowCount: this.rows.length };
      case "search": {
        const q = m.query.toLowerCase();
        const matches = [];
        this.rows.forEach((r, i) => {
          if (r.preview.toLowerCase().includes(q) || (r.label ?? "").toLowerCase().includes(q)) matches.push(i);
        });
        return { matches };
      }
      case "timeline":
        return this.timeline(m.leafId);
      case "timelinePosition":
        return { position: this.timelinePosition(m.leafId, m.id) };
      case "select": {
        const bars = this.data.bars.map((b) => ({ ...b, selected: b.leafId === m.id || (b.selected && !this.data.bars.some((o) => o.leafId === m.id)) }));
        return { bars, files: this.data.files, rowIndex: this.rows.findIndex((r) => r.id === m.id) };
      }
      default:
        throw new Error(`unexpected ${m.type}`);
    }
  }
}

const ROLES = ["user", "assistant", "toolResult", "assistant"];

/** Host for a 100,000-row session: rows are made up on request, never all at once. */
export class LargeHost {
  constructor(rowCount = 100_000) {
    this.rowCount = rowCount;
    this.filter = "default";
    this.log = [];
    this.rowsServed = 0;
  }

  row(i) {
    const role = ROLES[i % 4];
    return {
      id: `n${i}`,
      prefix: "",
      depth: 0,
      ...kindOf({ type: "message", role }),
      preview: `Row ${i}: ${role === "user" ? "next step please" : role === "assistant" ? "working on it" : "ok"}`,
      tokens: (i * 37) % 5000,
      onActivePath: true,
      isActiveLeaf: i === this.rowCount - 1,
      isDefaultLeaf: i === this.rowCount - 1,
      childCount: i === this.rowCount - 1 ? 0 : 1,
      folded: false,
    };
  }

  init() {
    const session = { path: "/home/ana/.pi/agent/sessions/big.jsonl", name: "100k entries", cwd: "/home/ana/big", version: 3, entryCount: this.rowCount, defaultLeafId: `n${this.rowCount - 1}`, problems: [], readOnly: false };
    const bars = [{ leafId: session.defaultLeafId, title: "Active branch", total: 170_000, byKind: { summary: 5000, user: 20000, assistant: 60000, toolResult: 85000 }, contextWindow: 200000, threshold: 183616, source: "recorded", selected: true }];
    return { type: "init", session: sessionInfo(session), rowCount: this.rowCount, filter: this.filter, bars };
  }

  answer(m) {
    switch (m.type) {
      case "rows": {
        const rows = [];
        for (let i = m.start; i < Math.min(this.rowCount, m.start + m.count); i++) rows.push(this.row(i));
        this.rowsServed += rows.length;
        return { start: m.start, rows, rowCount: this.rowCount };
      }
      case "select":
        return { bars: this.init().bars, files: [], rowIndex: Number(m.id.slice(1)) };
      case "timeline": {
        const last = this.rowCount - 1;
        const points = Array.from({ length: 50 }, (_, k) => ({ entryId: `n${last - 2 * (49 - k)}`, index: last - 2 * (49 - k), time: null, tokens: 3_400 * (k + 1), source: "recorded" }));
        return { leafId: m.leafId, model: "claude-sonnet-4-5", window: 200_000, threshold: 183_616, points, compactions: [] };
      }
      case "timelinePosition":
        return { position: Number(m.id.slice(1)) };
      case "details":
        return { id: m.id, kind: "user", typeLabel: "user", timestamp: "2026-03-02T09:14:00.000Z", line: Number(m.id.slice(1)) + 2, meta: [], blocks: [{ kind: "text", text: this.row(Number(m.id.slice(1))).preview }] };
      case "search":
        return { matches: [12, 50_000, 99_990] };
      case "setFilter":
      case "toggleFold":
        return { rowCount: this.rowCount };
      default:
        throw new Error(`unexpected ${m.type}`);
    }
  }
}

/**
 * Connects a host to a page: the page's stub acquireVsCodeApi calls the `__toHost`
 * binding; replies go back as window messages, as VS Code delivers them.
 */
export async function connect(page, host, opts = {}) {
  host.hold = false;
  host.held = [];
  const send = (msg) => page.evaluate((m) => window.postMessage(m, "*"), msg).catch(() => undefined);
  host.send = send;
  host.flushHeld = async () => {
    const held = host.held.splice(0);
    for (const m of held) await reply(m);
  };
  const reply = async (m) => {
    if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
    try {
      await send({ type: "reply", requestId: m.requestId, ok: true, result: await host.answer(m) });
    } catch (err) {
      await send({ type: "reply", requestId: m.requestId, ok: false, error: String(err.message ?? err) });
    }
  };
  await page.exposeBinding("__toHost", async (_source, m) => {
    host.log.push(m);
    if (m.type === "ready") {
      host.ready = m;
      // A host still loading its session answers ready with progress, and init later.
      if (!host.deferInit) await send(host.init());
      return;
    }
    if (m.type === "action" || m.type === "openFile" || m.type === "retryLoad") return;
    if (host.hold) host.held.push(m);
    else await reply(m);
  });
}
