import { strict as assert } from "node:assert";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import type { ExtensionApi } from "../../src/extension/extension";
import type { SearchOutcome } from "../../src/extension/search-results";
import type { SearchViewNode } from "../../src/extension/search-view";
import { assistant, entry, header, toolResult, user, writeSession } from "../helpers/session-builder";
import { until } from "./until";

/**
 * Search Sessions in the real extension host: the command with its request as an
 * argument (the palette flow asks for the same fields), the Search Results view's
 * provider as VS Code reads it, cancelling, and opening a hit in the explorer, whose
 * webview must select the entry (it asks the host to reveal it).
 */

const EXT_ID = "agent-session-explorer.agent-session-explorer";
const agentDir = process.env.PI_CODING_AGENT_DIR as string;
const HOUR = 3_600_000;

function projectDir(cwd: string): string {
  const dir = join(agentDir, "sessions", projectDirName(cwd));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Sets a file's mtime `agoMs` before now: the search runs newest first. */
function age(file: string, agoMs: number): void {
  const t = new Date(Date.now() - agoMs);
  utimesSync(file, t, t);
}

/**
 * Older: u ─┬─ a (reads parser.ts) ─ t (its output names the word) ─ a2
 *           └─ u3 ─ l (a label holding the word: shown only under "All entries")
 */
function writeOlder(): { file: string; ids: Record<string, string> } {
  const file = writeSession(
    [
      header({ cwd: "/home/ana/search-older" }),
      user("0000a001", null, "where does the Zebrafinch parser fail?"),
      assistant("0000a002", "0000a001", "Let me read it.", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "src/parser.ts" } }] }),
      toolResult("0000a003", "0000a002", "c1", "read", "export function zebrafinch() { throw new Error('boom'); }"),
      assistant("0000a004", "0000a003", "The function throws on every input."),
      user("0000a005", "0000a001", "try another way"),
      entry("label", "0000a006", "0000a005", { targetId: "0000a005", label: "zebrafinch checkpoint" }),
    ],
    { dir: projectDir("/home/ana/search-older"), name: "2026-01-01T00-00-00-000Z_search-older.jsonl" },
  );
  age(file, 2 * HOUR);
  return { file, ids: { user: "0000a001", result: "0000a003", label: "0000a006" } };
}

function writeNewer(): string {
  const file = writeSession(
    [
      header({ cwd: "/home/ana/search-newer" }),
      user("0000b001", null, "the zebrafinch test again, please"),
      assistant("0000b002", "0000b001", "Running the ZEBRAFINCH suite now.", { thinking: "they mean the zebrafinch tests" }),
      entry("session_info", "0000b003", "0000b002", { name: "Newer search session" }),
    ],
    { dir: projectDir("/home/ana/search-newer"), name: "2026-01-02T00-00-00-000Z_search-newer.jsonl" },
  );
  age(file, HOUR);
  return file;
}

/**
 * For cancelling: the newest file has a prompt with "quokka"; six older 10 MB files hold
 * it only in tool output, so a search for prompts parses every one of their lines and
 * takes long enough to be stopped after the first session's hits arrive.
 */
function writeQuokkas(): { first: string; big: string[] } {
  const dir = projectDir("/home/ana/search-quokka");
  const first = writeSession([header({ cwd: "/home/ana/search-quokka" }), user("0000c001", null, "a quokka prompt")], { dir, name: "2026-01-03T00-00-00-000Z_quokka-first.jsonl" });
  age(first, 0);
  const big: string[] = [];
  const filler = "quokka output line ".repeat(100);
  for (let f = 0; f < 6; f++) {
    const lines = [JSON.stringify(header({ cwd: "/home/ana/search-quokka" }))];
    let parent: string | null = null;
    for (let k = 0; k < 5000; k++) {
      const id = `${f}${k.toString(16).padStart(7, "0")}`;
      lines.push(JSON.stringify(toolResult(id, parent, "c", "bash", `${k} ${filler}`)));
      parent = id;
    }
    const file = join(dir, `2025-12-0${f + 1}T00-00-00-000Z_quokka-big${f}.jsonl`);
    writeFileSync(file, `${lines.join("\n")}\n`);
    age(file, (f + 3) * HOUR);
    big.push(file);
  }
  return { first, big };
}

const search = (req: Record<string, unknown>) => vscode.commands.executeCommand<SearchOutcome>("agentSessions.searchSessions", req);

describe("Search Sessions in a real VS Code extension host", function () {
  let api: ExtensionApi;
  let older: { file: string; ids: Record<string, string> };
  let newer: string;
  let quokka: { first: string; big: string[] };

  /** The view's session nodes for these files, in the view's order. */
  const sessionNodes = (files: string[]) => api.searchView.getChildren().filter((n): n is Extract<SearchViewNode, { kind: "session" }> => n.kind === "session" && files.includes(n.session.path));

  before(async () => {
    older = writeOlder();
    newer = writeNewer();
    quokka = writeQuokkas();
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXT_ID);
    assert.ok(ext);
    api = await ext.activate();
    // The listing gives session titles; it must know the new files.
    await api.sessionsView.refresh();
  });

  after(() => {
    api?.searchView.clear();
  });

  it("streams hits grouped by session, newest first: titles, agents, counts, kinds, snippets with the match highlighted", async () => {
    const out = await search({ pattern: "zebrafinch" });
    assert.equal(out.status, "done");
    const nodes = sessionNodes([older.file, newer]);
    assert.deepEqual(nodes.map((n) => n.session.path), [newer, older.file], "newest session first");
    assert.equal(out.sessions, api.searchView.getChildren().length);
    const newerItem = api.searchView.getTreeItem(nodes[0]);
    assert.equal(newerItem.label, "Newer search session", "the title the Sessions view lists");
    assert.equal(newerItem.description, "pi · 2 hits");
    assert.equal(newerItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const hits = api.searchView.getChildren(nodes[1]);
    assert.deepEqual(hits.map((h) => (h.kind === "hit" ? [h.hit.entryId, h.hit.kind] : [])), [
      ["0000a001", "user"],
      ["0000a003", "tool-result"],
      ["0000a006", "label"],
    ]);
    for (const h of hits) {
      const item = api.searchView.getTreeItem(h);
      const label = item.label as vscode.TreeItemLabel;
      assert.equal(label.highlights?.length, 1);
      assert.equal(label.label.slice(...(label.highlights?.[0] ?? [0, 0])).toLowerCase(), "zebrafinch", label.label);
      assert.ok(String(item.description).startsWith(h.kind === "hit" ? h.hit.kind : "?"));
      const tip = item.tooltip as vscode.MarkdownString;
      assert.equal(tip.isTrusted, false);
      assert.match(tip.value, /zebrafinch/i);
      assert.equal(item.command?.command, "agentSessions.openSearchHit");
      assert.equal((item.command?.arguments?.[0] as vscode.Uri).fsPath, older.file);
      assert.equal(item.command?.arguments?.[1], h.kind === "hit" ? h.hit.entryId : "");
    }
    assert.equal((api.searchView.getTreeItem(hits[1]).iconPath as vscode.ThemeIcon).id, "output");
    assert.match(api.searchView.message, /^\d+ hits? in \d+ sessions? \(\d+ files? searched\)\.$/);
  });

  it("filters: prompts only, match case, regex, an agent, a date range; Search in Session searches one file", async () => {
    let out = await search({ pattern: "zebrafinch", kind: "user" });
    assert.deepEqual(sessionNodes([older.file, newer]).flatMap((n) => n.session.hits.map((h) => h.kind)), ["user", "user"]);
    out = await search({ pattern: "ZEBRAFINCH", caseSensitive: true });
    assert.deepEqual(sessionNodes([older.file, newer]).flatMap((n) => n.session.hits.map((h) => h.entryId)), ["0000b002"]);
    out = await search({ pattern: "zebra\\w+ (parser|test)", regex: true });
    assert.deepEqual(sessionNodes([older.file, newer]).flatMap((n) => n.session.hits.map((h) => h.entryId)), ["0000b001", "0000b002", "0000a001"]);
    out = await search({ pattern: "zebrafinch", agent: "clawdcode" });
    assert.equal(sessionNodes([older.file, newer]).length, 0, "pi sessions are left out");
    // The entries were written in January: none is within the last 30 days.
    out = await search({ pattern: "zebrafinch", date: "30d" });
    assert.equal(sessionNodes([older.file, newer]).length, 0);
    // A limit stops the search (the editor's default is DEFAULT_LIMIT hits).
    out = await search({ pattern: "zebrafinch", limit: 2 });
    assert.deepEqual([out.hits, out.limited], [2, true]);
    assert.match(api.searchView.message, /stopped at 2 hits\)\.$/);
    out = (await vscode.commands.executeCommand<SearchOutcome>("agentSessions.searchInSession", vscode.Uri.file(older.file), { pattern: "zebrafinch" })) as SearchOutcome;
    assert.equal(out.status, "done");
    assert.deepEqual(api.searchView.getChildren().map((n) => (n.kind === "session" ? n.session.path : "")), [older.file]);
    assert.equal(out.hits, 3);
    assert.match(String(api.searchView.description), /"zebrafinch" · in 2026-01-01T00-00-00-000Z_search-older\.jsonl/);
    // The session node's context menu: Search in Session takes the node as it takes a Sessions view row.
    const node = api.searchView.getChildren()[0];
    out = (await vscode.commands.executeCommand<SearchOutcome>("agentSessions.searchInSession", node, { pattern: "checkpoint" })) as SearchOutcome;
    assert.deepEqual([out.status, out.hits], ["done", 1]);
  });

  it("a bad regex, no match, and a project with no sessions: each reported in the view's message", async () => {
    let out = await search({ pattern: "zebra(", regex: true });
    assert.equal(out.status, "failed");
    assert.match(out.error ?? "", /invalid regular expression \/zebra\(\/: Unterminated group/);
    assert.match(api.searchView.message, /^Search failed: invalid regular expression/);
    assert.equal(api.searchView.getChildren().length, 0);
    out = await search({ pattern: "no-such-text-anywhere-7f3a" });
    assert.deepEqual([out.status, out.hits], ["done", 0]);
    assert.match(api.searchView.message, /^No matches \(\d+ files? searched\)\.$/);
    out = await search({ pattern: "zebrafinch", project: "/nowhere/at/all" });
    assert.equal(out.status, "done");
    assert.match(api.searchView.message, /^No session matches the filters \(looked under .*\(pi\)/);
  });

  it("results stream in, Cancel stops the search at once and keeps what it found; a new search cancels the old one", async () => {
    // Cancelled as soon as the first session is in the view: the big files are not all read.
    let cancelled = false;
    const sub = api.searchView.onDidChangeTreeData(() => {
      if (!cancelled && api.searchView.current?.sessions.length) {
        cancelled = true;
        void vscode.commands.executeCommand("agentSessions.cancelSearch");
      }
    });
    const t0 = Date.now();
    let out: SearchOutcome;
    try {
      out = await search({ pattern: "quokka", kind: "user" });
    } finally {
      sub.dispose();
    }
    console.log(`      cancelled after ${Date.now() - t0} ms: ${out.scanned.files} file(s), ${(out.scanned.bytes / 2 ** 20).toFixed(1)} MB read`);
    assert.equal(out.status, "cancelled");
    assert.deepEqual(sessionNodes([quokka.first]).map((n) => n.session.hits.length), [1], "the first session's hits stay");
    assert.ok(out.scanned.files < 1 + quokka.big.length, `stopped before the end: ${out.scanned.files} files read`);
    assert.match(api.searchView.message, /^Cancelled: 1 hit in 1 session so far/);
    // Two searches: the second cancels the first, whose promise resolves as cancelled.
    let second: Thenable<SearchOutcome> | undefined;
    const sub2 = api.searchView.onDidChangeTreeData(() => {
      if (!second && api.searchView.current?.request.pattern === "quokka" && api.searchView.current.sessions.length) second = search({ pattern: "zebrafinch" });
    });
    let a: SearchOutcome;
    try {
      a = await search({ pattern: "quokka", kind: "user" });
    } finally {
      sub2.dispose();
    }
    assert.ok(second, "the second search started while the first ran");
    const b = await second;
    assert.equal(a.status, "cancelled");
    assert.equal(b.status, "done");
    assert.equal(api.searchView.current?.request.pattern, "zebrafinch");
  });

  it("a regex that backtracks for ever runs off the host's thread: Cancel stops it within a moment, and alone it stops at the deadline keeping its hits", async function () {
    this.timeout(120_000);
    // A quick hit first, then a prompt (a+)+$ backtracks on for far longer than any test runs.
    const file = writeSession([header({ cwd: "/home/ana/search-backtrack" }), user("0000d001", null, "quick aaa"), user("0000d002", null, `${"a".repeat(50_000)}!`)], {
      dir: projectDir("/home/ana/search-backtrack"),
      name: "2026-01-04T00-00-00-000Z_backtrack.jsonl",
    });
    age(file, 5 * HOUR);
    const request = { pattern: "(a+)+$", regex: true, files: [file] };
    // Cancel: the host stays free to run it (the poll below runs only on a free host), and it takes effect at once.
    const t0 = Date.now();
    const running = search(request);
    await until("the search to run for a while", () => api.searchView.current?.request.pattern === "(a+)+$" && Date.now() - t0 > 300);
    const cancelledAt = Date.now();
    await vscode.commands.executeCommand("agentSessions.cancelSearch");
    const out = await running;
    const ms = Date.now() - cancelledAt;
    console.log(`      cancelled a backtracking regex in ${ms} ms`);
    assert.equal(out.status, "cancelled");
    assert.ok(ms < 1000, `Cancel took ${ms} ms (the aim is 100 ms; generous on a busy machine)`);
    // Alone: stopped at the deadline (2 s), the one hit before it kept, the message naming both.
    const t1 = Date.now();
    const stopped = await search(request);
    assert.ok(Date.now() - t1 < 30_000);
    assert.equal(stopped.status, "failed");
    assert.match(stopped.error ?? "", /ran for more than 2 s on one entry \(line 3 of .*backtrack\.jsonl\) and was stopped: it backtracks/);
    assert.equal(stopped.hits, 1);
    assert.deepEqual(sessionNodes([file]).map((n) => n.session.hits.map((h) => h.entryId)), [["0000d001"]]);
    assert.match(api.searchView.message, /^Search failed: the regular expression \/\(a\+\)\+\$\/ ran for more than 2 s .* \(1 hit in 1 session found before it stopped\)$/);
  });

  it("opening a hit opens the explorer on its session with the entry selected, in a new panel and in one already open", async () => {
    await search({ pattern: "zebrafinch" });
    const hitNode = (file: string, entryId: string) => {
      const s = sessionNodes([file])[0];
      const h = api.searchView.getChildren(s).find((n) => n.kind === "hit" && n.hit.entryId === entryId);
      assert.ok(h, `a hit on ${entryId}`);
      return api.searchView.getTreeItem(h);
    };
    const open = async (item: vscode.TreeItem) => vscode.commands.executeCommand(item.command?.command ?? "", ...(item.command?.arguments ?? []));
    // A new panel: the entry is selected once its webview is up.
    assert.equal(api.panelFor(older.file), undefined);
    await open(hitNode(older.file, older.ids.result));
    const panel = await until("the explorer on the older session", () => api.panelFor(older.file));
    await until("the webview to select the tool result", () => panel.selectedEntry === older.ids.result, 30_000);
    // Already open and in front: a label, shown only under "All entries", is revealed too.
    await open(hitNode(older.file, older.ids.label));
    await until("the webview to select the label entry", () => panel.selectedEntry === older.ids.label, 30_000);
    // Open but behind another panel (its webview is gone until it is shown again).
    await open(hitNode(newer, "0000b001"));
    const other = await until("the newer session's panel", () => api.panelFor(newer));
    await until("the newer webview to select its prompt", () => other.selectedEntry === "0000b001", 30_000);
    await open(hitNode(older.file, older.ids.user));
    await until("the older webview, shown again, to select the prompt", () => panel.selectedEntry === older.ids.user, 30_000);
    assert.deepEqual(api.panels().filter((f) => f === older.file || f === newer).sort(), [newer, older.file].sort());
  });

  it("a hit whose entry is gone (the file was rewritten) is an error naming the entry; the hit's click does not throw it at the tree", async () => {
    await assert.rejects(Promise.resolve(vscode.commands.executeCommand("agentSessions.openSession", vscode.Uri.file(older.file), "0000dead")), /has no entry "0000dead"/);
    const panel = api.panelFor(older.file);
    const before = panel?.selectedEntry;
    await vscode.commands.executeCommand("agentSessions.openSearchHit", vscode.Uri.file(older.file), "0000dead");
    assert.equal(panel?.selectedEntry, before);
  });
});
