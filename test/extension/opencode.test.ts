import { strict as assert } from "node:assert";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { loadSqliteWasm } from "../../src/core/lazy/lazy-bundles";
import type { ExplorerPanel } from "../../src/extension/explorer-panel";
import type { ExtensionApi } from "../../src/extension/extension";
import { openPanel, panelRows } from "./panels";
import { until } from "./until";

/**
 * OpenCode in the real extension host, on databases recorded with the real opencode 1.18.33
 * (test/fixtures/opencode), laid out as OpenCode names its channel databases in a data folder
 * the setting agentSessions.opencodeHome points at: the Sessions view lists the sessions
 * `<db>#<id>` with the task child under its parent, and the explorer shows an auto-compaction's
 * boundary, a pending revert's abandoned branch and the child session nested under its call.
 * The databases are read, never written; the last test commits a message to one (the copy
 * in the temp folder) as OpenCode would, and the open explorer and the Sessions view show it.
 */

const EXT_ID = "agent-session-explorer.agent-session-explorer";
const DBS = { compaction: "opencode.db", revert: "opencode-revert.db", subagent: "opencode-subagent.db" } as const;
type Scenario = keyof typeof DBS;
const post = (panel: ExplorerPanel, m: unknown) => (panel as unknown as { onMessage(m: unknown): Promise<void> }).onMessage(m);

describe("OpenCode sessions in a real VS Code extension host", function () {
  let api: ExtensionApi;
  const opened: string[] = [];
  const dir = join(process.env.TMPDIR ?? "/tmp", "opencode-data");
  const session: Partial<Record<Scenario, string>> = {};
  const bytes: Partial<Record<Scenario, Buffer>> = {};

  before(async () => {
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} is installed`);
    api = await ext.activate();
    mkdirSync(dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(ext.extensionPath, "test", "fixtures", "opencode", "manifest.json"), "utf8")) as { scenarios: Record<string, { sessions: Array<{ id: string; parentId: string | null }> }> };
    for (const [scenario, name] of Object.entries(DBS) as Array<[Scenario, string]>) {
      const db = join(dir, name);
      copyFileSync(join(ext.extensionPath, "test", "fixtures", "opencode", scenario, "data", "opencode", "opencode.db"), db);
      bytes[scenario] = readFileSync(db);
      const top = manifest.scenarios[scenario].sessions.find((s) => s.parentId === null);
      assert.ok(top, `${scenario}: a top-level session in the manifest`);
      session[scenario] = `${db}#${top.id}`;
    }
    await vscode.workspace.getConfiguration("agentSessions").update("opencodeHome", dir, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    for (const f of opened) api?.panelFor(f)?.panel.dispose();
    await vscode.workspace.getConfiguration("agentSessions").update("opencodeHome", undefined, vscode.ConfigurationTarget.Global);
  });

  it("the Sessions view lists each database's session as <db>#<id>, marked OpenCode, the task child under its parent", async () => {
    let listed: Array<{ path: string; description: string; children: number }> = [];
    await until("the three recorded OpenCode sessions in the Sessions view", async () => {
      await api.sessionsView.refresh();
      listed = [];
      for (const p of await api.sessionsView.getChildren()) {
        if (p.kind !== "project") continue;
        for (const n of await api.sessionsView.getChildren(p)) {
          if (n.kind !== "session" || !n.session.path.startsWith(dir)) continue;
          listed.push({ path: n.session.path, description: String(api.sessionsView.getTreeItem(n).description), children: (await api.sessionsView.getChildren(n)).length });
        }
      }
      return listed.length >= 3;
    }, 30_000);
    assert.deepEqual(listed.map((s) => s.path).sort(), Object.values(session).sort());
    for (const s of listed) assert.match(s.description, /^OpenCode · /, s.path);
    assert.equal(listed.find((s) => s.path === session.subagent)?.children, 1, "the task's child session is listed under its parent");
  });

  it("an auto-compaction: a boundary row on the active path, the turns it summarized still shown off it", async () => {
    const panel = await openPanel(api, session.compaction!, opened);
    const rows = await panelRows(panel, "all");
    const boundary = rows.find((r) => r.kind === "boundary");
    assert.ok(boundary, `a boundary row: ${rows.map((r) => `${r.kind}:${r.preview}`).join(" | ")}`);
    assert.equal(boundary.onActivePath, true);
    assert.ok(rows.some((r) => r.preview.includes("first a small question")), "the first turn is still a row");
    assert.equal(panel.stats.errors, 0);
  });

  it("a pending revert: the reverted turn is an abandoned branch, OpenCode resumes before it", async () => {
    const panel = await openPanel(api, session.revert!, opened);
    const rows = await panelRows(panel, "all");
    const off = rows.filter((r) => !r.onActivePath);
    assert.ok(off.length > 0, `rows off the active path (the reverted part): ${rows.map((r) => `${r.onActivePath ? "+" : "-"}${r.preview}`).join(" | ")}`);
    const leaf = rows.find((r) => r.isDefaultLeaf);
    assert.ok(leaf && leaf.onActivePath, "the default leaf is on the kept path");
    assert.equal(panel.stats.errors, 0);
  });

  it("a task sub-agent: the call's row carries the child session and expands into its rows", async () => {
    const panel = await openPanel(api, session.subagent!, opened);
    const rows = await panelRows(panel, "default");
    const call = rows.find((r) => r.subagents);
    assert.ok(call, `the task call's row with its sub-agent cue: ${rows.map((r) => r.preview).join(" | ")}`);
    await post(panel, { type: "expandSubagent", requestId: 9201, id: call.id, expand: true });
    let nested: typeof rows = [];
    await until("the child session's rows under the call", async () => {
      const shown = await panelRows(panel, "default");
      nested = shown.filter((r) => r.nested?.callId === call.id);
      return nested.length > 0;
    }, 20_000);
    assert.ok(nested.length > 0);
    assert.equal(panel.stats.errors, 0);
    for (const s of Object.keys(DBS) as Scenario[]) assert.ok(readFileSync(join(dir, DBS[s])).equals(bytes[s]!), `${s}: the database is unchanged`);
  });

  it("live: a message committed to the open session's database (a temp copy) appears in its explorer and in the Sessions view, untouched by us", async () => {
    const address = session.compaction!;
    const panel = await openPanel(api, address, opened);
    const words = "a question typed while the explorer was open";
    const listedCount = async () => {
      for (const p of await api.sessionsView.getChildren()) {
        if (p.kind !== "project") continue;
        for (const n of await api.sessionsView.getChildren(p)) if (n.kind === "session" && n.session.path === address) return n.session.entryCount;
      }
      return undefined;
    };
    const countBefore = await until("the session in the Sessions view", listedCount, 30_000);
    const reloadsBefore = panel.stats.reloads;
    const db = join(dir, DBS.compaction);
    const written = await commitMessage(db, address.slice(address.indexOf("#") + 1), words);
    await until("the new message's row in the open explorer", async () => (await panelRows(panel, "all")).some((r) => r.preview.includes(words)), 30_000);
    assert.equal(panel.stats.reloads, reloadsBefore + 1, "read again once, for the one commit");
    assert.equal(panel.stats.errors, 0);
    // The view refreshes on its own (its folder watcher): no refresh() here.
    await until("the Sessions view's count with the new message", async () => (await listedCount()) === countBefore + 1, 30_000);
    assert.ok(readFileSync(db).equals(written), "the database holds what was committed, nothing more: we never write it");
  });
});

/**
 * A user message and its text part committed to a database as OpenCode commits a prompt
 * (part data without ids; ids and times after every row there), written in place through
 * the WebAssembly SQLite; returns the bytes written.
 */
async function commitMessage(db: string, sessionId: string, words: string): Promise<Buffer> {
  const SQL = await loadSqliteWasm().initSqlJs();
  const image = readFileSync(db);
  // OpenCode's file is in WAL mode (header bytes 18-19 = 2), which an in-memory SQLite cannot open: opened as a rollback-journal file, marked back after.
  const mode = [image[18], image[19]];
  image[18] = image[19] = 1;
  const d = new SQL.Database(image);
  try {
    const at = Number(d.exec("SELECT max(time_created) FROM message")[0].values[0][0]) + 1000;
    const data = { role: "user", time: { created: at }, agent: "build", model: { providerID: "fake", modelID: "m1" } };
    d.exec("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?)", ["msg_zzlive0001", sessionId, at, at, JSON.stringify(data)]);
    d.exec("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?,?)", ["prt_zzlive0001", "msg_zzlive0001", sessionId, at, at, JSON.stringify({ type: "text", text: words })]);
    const out = Buffer.from(d.export());
    [out[18], out[19]] = mode;
    writeFileSync(db, out);
    return out;
  } finally {
    d.close();
  }
}
