import { strict as assert } from "node:assert";
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { formatOf, openSession } from "../../src/core/formats/registry";
import type { SessionReader } from "../../src/core/session/session-reader";
import type { ExplorerPanel } from "../../src/extension/explorer-panel";
import type { ExtensionApi } from "../../src/extension/extension";
import type { Row } from "../../src/protocol";
import { openPanel, panelRows } from "./panels";
import { until } from "./until";

/**
 * Claude Code in the real extension host, on the real transcripts of ../shared (copied
 * into the runner's throwaway CLAUDE_CONFIG_DIR, never into the project) and on the
 * project's own fixtures: the Sessions view lists them under the cwd their lines name,
 * the explorer opens them (a compaction, sub-agents, a rewind), a tool call opens its
 * sub-agent's transcript, a fork is a new file /branch-shaped, nothing else is written.
 */

const EXT_ID = "agent-session-explorer.agent-session-explorer";
const claudeDir = process.env.CLAUDE_CONFIG_DIR as string;
let notRun = 0;

describe("Claude Code transcripts in a real VS Code extension host", function () {
  let api: ExtensionApi;
  let shared: string;
  let ours: string;
  const opened: string[] = [];
  const SUB_SESSION = "ef958aa1-0e93-49f0-bb71-150f63befcd1";

  /** The store folder of a cwd: "/" (and ".") become "-" (claude-code-format.md 1). */
  const storeFolder = (cwd: string) => join(claudeDir, "projects", cwd.replace(/[/.]/g, "-"));

  function needShared(ctx: Mocha.Context, ...paths: string[]): void {
    if (paths.every((p) => existsSync(join(shared, p)))) return;
    if (process.env.CI) throw new Error(`Claude Code fixtures missing under ${shared} (CI must have ../shared)`);
    notRun++;
    ctx.skip();
  }

  /** A real transcript copied into the store under the cwd its lines name; returns the copy. */
  function intoStore(rel: string): string {
    const src = join(shared, rel);
    const first = readFileSync(src, "utf8").split("\n").map((l) => { try { return JSON.parse(l) as { cwd?: unknown }; } catch { return {}; } }).find((o) => typeof o.cwd === "string");
    const dir = storeFolder(String(first?.cwd ?? "/unknown"));
    mkdirSync(dir, { recursive: true });
    const to = join(dir, rel.split("/").pop() as string);
    copyFileSync(src, to);
    return to;
  }

  const open = (file: string): Promise<ExplorerPanel> => openPanel(api, file, opened);

  const rows = panelRows;

  before(async () => {
    assert.ok(claudeDir, "CLAUDE_CONFIG_DIR must be set by the runner (test/extension/run.mjs)");
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXT_ID);
    assert.ok(ext, `extension ${EXT_ID} is installed`);
    api = await ext.activate();
    shared = join(ext.extensionPath, "..", "shared", "fixtures", "claude-code");
    ours = join(ext.extensionPath, "test", "fixtures", "claude-code");
  });

  after(() => {
    for (const f of opened) api?.panelFor(f)?.panel.dispose();
    if (notRun) console.log(`\n  NOTE: ${notRun} Claude Code test(s) NOT RUN: ../shared/fixtures/claude-code not found beside the extension\n`);
  });

  it("the Sessions view lists the real transcripts under the cwd their lines name, marked Claude Code, with the sub-agents under their session", async function () {
    needShared(this, "real/agentlogs-compact.jsonl", `real/ccl-subagents-v2.1.114/${SUB_SESSION}.jsonl`);
    intoStore("real/agentlogs-compact.jsonl");
    const main = intoStore(`real/ccl-subagents-v2.1.114/${SUB_SESSION}.jsonl`);
    cpSync(join(shared, "real", "ccl-subagents-v2.1.114", SUB_SESSION), join(main.replace(/\.jsonl$/, "")), { recursive: true });
    await api.sessionsView.refresh();
    let sessions: Array<{ path: string; description: string; subagents: number }> = [];
    await until("both transcripts in the Sessions view", async () => {
      sessions = [];
      for (const p of await api.sessionsView.getChildren()) {
        for (const n of await api.sessionsView.getChildren(p)) {
          if (n.kind !== "session") continue;
          sessions.push({ path: n.session.path, description: String(api.sessionsView.getTreeItem(n).description), subagents: (await api.sessionsView.getChildren(n)).length });
        }
      }
      return sessions.some((s) => s.path === main);
    }, 20_000);
    const sub = sessions.find((s) => s.path === main);
    assert.match(sub?.description ?? "", /^Claude Code · /);
    assert.equal(sub?.subagents, readdirSync(join(main.replace(/\.jsonl$/, ""), "subagents")).filter((n) => n.endsWith(".jsonl")).length);
    const projects = (await api.sessionsView.getChildren()).map((p) => (p.kind === "project" ? p.group.cwd : ""));
    assert.ok(projects.includes("/Users/philipp/dev/studio"), `projects: ${projects.join(", ")}`);
  });

  it("a real compaction opens: the boundary row, its details (manual, tokens before, the summary, what it summarized), bars from recorded usage", async function () {
    needShared(this, "real/agentlogs-compact.jsonl");
    const panel = await open(intoStore("real/agentlogs-compact.jsonl"));
    const all = await rows(panel);
    const boundary = all.find((r) => r.kind === "boundary");
    assert.ok(boundary?.compaction, "a boundary row with what it did");
    assert.equal(boundary.compaction.tokensBefore, 15808);
    const d = await panel.answer({ type: "details", requestId: 0, id: boundary.id });
    assert.equal(d.compaction?.trigger, "manual");
    assert.match(d.compaction?.summary ?? "", /^This session is being continued from a previous conversation/);
    assert.ok((d.compaction?.summarizedEntries ?? 0) > 0);
    const s = panel.session as SessionReader;
    const sel = await panel.answer({ type: "select", requestId: 0, id: s.metas[formatOf(s).defaultLeaf(s)].id });
    assert.ok(sel.bars.length > 0 && sel.bars[0].total > 0);
    assert.equal(panel.stats.errors, 0);
  });

  it("a response starting three sub-agents is one row; its details link each sub-agent, and openSubagent opens that transcript in its own explorer", async function () {
    needShared(this, `real/ccl-subagents-v2.1.114/${SUB_SESSION}.jsonl`);
    const main = intoStore(`real/ccl-subagents-v2.1.114/${SUB_SESSION}.jsonl`);
    cpSync(join(shared, "real", "ccl-subagents-v2.1.114", SUB_SESSION), main.replace(/\.jsonl$/, ""), { recursive: true });
    const panel = await open(main);
    const shown = await rows(panel, "default");
    const last = "354c4ace-b8bd-4797-8d27-65155d5df196";
    assert.ok(shown.some((r) => r.id === last), "the response's last line is its row");
    assert.ok(!shown.some((r) => r.id === "fc61c13e-9209-4099-9847-3c6aed90e03c"), "its earlier lines are not rows by default");
    const d = await panel.answer({ type: "details", requestId: 0, id: last });
    assert.deepEqual(d.subagents?.map((a) => [a.agentId, a.found]), [["a4ca7529859c158c2", true], ["a52886dc180afb356", true], ["ab1e6e141221a29ab", true]]);
    await (panel as unknown as { onMessage(m: unknown): Promise<void> }).onMessage({ type: "openSubagent", entryId: last, agentId: "a52886dc180afb356" });
    const subFile = join(main.replace(/\.jsonl$/, ""), "subagents", "agent-a52886dc180afb356.jsonl");
    const sub = await until("the sub-agent's explorer", () => api.panelFor(subFile), 30_000);
    await sub.whenLoaded();
    opened.push(subFile);
    assert.equal(sub.failure, undefined);
    const subRows = await rows(sub, "default");
    assert.ok(subRows.length > 3, `the sub-agent's own lines are its conversation (${subRows.length} rows)`);
    assert.equal(panel.stats.errors + sub.stats.errors, 0);
  });

  it("our rewind fixture: both branches are rows; a fork from the older branch is a new file in the same folder, /branch-shaped; the source unchanged", async () => {
    const dir = storeFolder("/home/dev/demo");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "cc000000-0000-4000-8000-000000000000.jsonl");
    copyFileSync(join(ours, "rewind-split-sidechain.jsonl"), file);
    const before = readFileSync(file);
    const panel = await open(file);
    const ids = (await rows(panel, "default")).map((r) => r.id);
    for (const n of [9, 12]) assert.ok(ids.includes(`cc100000-0000-4000-8000-0000000000${String(n).padStart(2, "0")}`), `prompt ${n} of the rewind is a row`);
    const info = panel.sessionInfo();
    assert.deepEqual(Object.keys(info?.unavailable ?? {}).sort(), ["compact", "continue", "label"]);
    const at = "cc100000-0000-4000-8000-000000000011";
    const forked = (await vscode.commands.executeCommand("agentSessions.forkSession", vscode.Uri.file(file), at)) as string;
    assert.equal(typeof forked, "string");
    assert.equal(join(forked, ".."), dir);
    const lines = readFileSync(forked, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.match(String(lines.at(-1)?.customTitle), /\(Branch\)$/);
    assert.ok(lines.slice(0, -1).every((l) => (l.forkedFrom as { sessionId?: unknown } | undefined)?.sessionId === "cc000000-0000-4000-8000-000000000000"));
    const a = await openSession(forked);
    const b = await openSession(file);
    assert.deepEqual(formatOf(a).context(a, formatOf(a).defaultLeaf(a)).messages, formatOf(b).context(b, b.requireIndex(at)).messages);
    assert.ok(readFileSync(file).equals(before), "the source changed");
  });

  it("Fork Latest on a transcript whose last line is a sub-agent's sidechain line forks where Claude Code resumes (the main chain), not at the sidechain", async () => {
    const dir = storeFolder("/home/dev/demo");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "cc000000-0000-4000-8000-000000000f0f");
    copyFileSync(join(ours, "rewind-split-sidechain.jsonl"), `${file}.jsonl`);
    const src = await openSession(`${file}.jsonl`);
    const last = src.metas[src.metas.length - 1];
    assert.equal((src.entryAt(src.metas.length - 1) as { isSidechain?: unknown }).isSidechain, true, "the fixture ends in a sidechain line");
    const resume = formatOf(src).defaultLeaf(src);
    assert.notEqual(src.metas[resume].id, last.id);
    const forked = (await vscode.commands.executeCommand("agentSessions.forkLatest", vscode.Uri.file(`${file}.jsonl`))) as string;
    assert.equal(typeof forked, "string", "Fork Latest failed (see the log)");
    const lines = readFileSync(forked, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.ok(lines.every((l) => l.isSidechain !== true), "no sidechain line in the fork");
    const fork = await openSession(forked);
    assert.deepEqual(formatOf(fork).context(fork, formatOf(fork).defaultLeaf(fork)).messages, formatOf(src).context(src, resume).messages);
  });

  it("a sub-agent written inline is listed under its session and opens the session with its first line selected", async function () {
    needShared(this, "real/agentlogs-subagent-inline.jsonl");
    const file = intoStore("real/agentlogs-subagent-inline.jsonl");
    await api.sessionsView.refresh();
    let item: vscode.TreeItem | undefined;
    await until("the inline sub-agent under its session", async () => {
      for (const p of await api.sessionsView.getChildren()) {
        for (const n of await api.sessionsView.getChildren(p)) {
          if (n.kind !== "session" || n.session.path !== file) continue;
          const subs = await api.sessionsView.getChildren(n);
          if (subs.length) item = api.sessionsView.getTreeItem(subs[0]);
        }
      }
      return item !== undefined;
    }, 20_000);
    assert.match(String(item?.description), /written inline/);
    const first = "cd49a45d-dd15-4ec8-8963-410e62666fbc";
    assert.deepEqual(item?.command?.arguments?.map(String), [vscode.Uri.file(file).toString(), first]);
    await vscode.commands.executeCommand(item?.command?.command as string, ...(item?.command?.arguments ?? []));
    const panel = await until("its explorer", () => api.panelFor(file), 30_000);
    opened.push(file);
    await until("the sub-agent's first line selected", () => panel.selectedEntry === first, 30_000);
  });

  it("the webview's context menu commands act on the panel they were opened in: Preview Context opens the preview, Label is refused with the format's reason", async () => {
    const dir = storeFolder("/home/dev/demo");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "cc000000-0000-4000-8000-00000000000c.jsonl");
    copyFileSync(join(ours, "rewind-split-sidechain.jsonl"), file);
    const before = readFileSync(file);
    const panel = await open(file);
    const leaf = "cc100000-0000-4000-8000-000000000015";
    await vscode.commands.executeCommand("agentSessions.menu.previewContext", { webview: "agentSessions.explorer", webviewSection: "row", entryId: leaf, sessionPath: file });
    const preview = await until("the preview of the entry's context", () => vscode.workspace.textDocuments.find((d) => d.getText().startsWith(`// Context Claude Code sends for leaf ${leaf} of '`) && d.getText().split("\n")[0].endsWith(` (${file})`)), 20_000);
    assert.match(preview.getText(), /unrecorded overhead|Not in the file/);
    const notice = panel.stats.lastNotice;
    await vscode.commands.executeCommand("agentSessions.menu.label", { webviewSection: "row", entryId: leaf, sessionPath: file });
    await until("the refusal", () => panel.stats.lastNotice !== notice);
    assert.match(String(panel.stats.lastNotice), /Claude Code compacts and labels in its own session only/);
    assert.ok(readFileSync(file).equals(before), "nothing written");
  });
});
