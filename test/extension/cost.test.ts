import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { formatOf, openSession } from "../../src/core/formats/registry";
import { costFigures, costHeadline } from "../../src/core/usage/cost-words";
import type { PriceOverrides } from "../../src/core/tokens/prices";
import { sessionCost } from "../../src/core/usage/session-cost";
import type { SessionCostOutcome, TotalCostOutcome } from "../../src/extension/cost-command";
import type { ExtensionApi } from "../../src/extension/extension";
import type { SessionsViewNode } from "../../src/extension/sessions-view";
import { assistant, header, user, writeSession } from "../helpers/session-builder";
import { activateWithPiProject } from "./pi-project";
import { until } from "./until";

/**
 * Know the cost in the real extension host: the Sessions view's tooltips and optional
 * column, the Total Cost commands, and agentSessions.modelPrices applied everywhere.
 * Its sessions live in a project of their own in the runner's throwaway pi dir.
 */

const CWD = "/home/ana/costs";
const LOCAL_PRICE = { input: 1, output: 10, cacheWrite: 0, cacheRead: 0 };

/** A tooltip's text as written (appendText escapes Markdown punctuation). */
function tooltipText(t: vscode.TreeItem["tooltip"]): string {
  const raw = t instanceof vscode.MarkdownString ? t.value : String(t ?? "");
  return raw.replace(/&nbsp;/g, " ").replace(/\\(.)/g, "$1");
}

/** Lines of the extension's log files (in and beside its log folder). */
function logText(logDir: string): string {
  let out = "";
  for (const dir of [logDir, dirname(logDir)]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir, { recursive: true }).map(String)) if (name.endsWith(".log")) out += readFileSync(join(dir, name), "utf8");
  }
  return out;
}

async function expectedCost(path: string, prices?: PriceOverrides) {
  const s = await openSession(path);
  return sessionCost(s, formatOf(s), { prices });
}

describe("Know the cost in a real VS Code extension host", function () {
  let api: ExtensionApi;
  const files: Record<"priced" | "recorded" | "local", string> = { priced: "", recorded: "", local: "" };
  const cfg = () => vscode.workspace.getConfiguration("agentSessions");

  async function node(file: string): Promise<SessionsViewNode> {
    await api.sessionsView.refresh();
    const projects = await api.sessionsView.getChildren();
    const project = projects.find((p) => p.kind === "project" && p.group.cwd === CWD);
    assert.ok(project, "the costs project is listed");
    const sessions = await api.sessionsView.getChildren(project);
    const n = sessions.find((s) => s.kind === "session" && s.session.path === file);
    assert.ok(n, `${file} is listed`);
    return n;
  }

  async function tooltip(file: string): Promise<string> {
    const n = await node(file);
    const item = await api.sessionsView.resolveTreeItem(api.sessionsView.getTreeItem(n), n);
    return tooltipText(item.tooltip);
  }

  before(async () => {
    const got = await activateWithPiProject(CWD);
    api = got.api;
    const dir = got.dir;
    const usage = { input: 1000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 1100 };
    files.priced = writeSession([header({ cwd: CWD }), user("c0000001", null, "price me"), assistant("c0000002", "c0000001", "ok", { usage }), user("c0000003", "c0000002", "again"), assistant("c0000004", "c0000003", "ok", { usage })], { dir, name: "2026-01-01T00-00-00-000Z_priced.jsonl" });
    files.recorded = writeSession([header({ cwd: CWD }), user("d0000001", null, "recorded"), assistant("d0000002", "d0000001", "ok", { usage: { ...usage, cost: { total: 0.25 } } })], { dir, name: "2026-01-02T00-00-00-000Z_recorded.jsonl" });
    files.local = writeSession([header({ cwd: CWD }), user("e0000001", null, "local model"), assistant("e0000002", "e0000001", "ok", { model: "local-llama", usage })], { dir, name: "2026-01-03T00-00-00-000Z_local.jsonl" });
  });

  after(async () => {
    await cfg().update("modelPrices", undefined, vscode.ConfigurationTarget.Global);
    await cfg().update("showCost", undefined, vscode.ConfigurationTarget.Global);
  });

  it("a session's tooltip gives its cost, computed when the tooltip is asked for", async () => {
    const n = await node(files.priced);
    assert.doesNotMatch(tooltipText(api.sessionsView.getTreeItem(n).tooltip), /Cost/, "the listing itself computes no cost");
    const want = await expectedCost(files.priced);
    const tip = await tooltip(files.priced);
    assert.ok(tip.includes(`Cost of the session: ${costHeadline(costFigures(want.total, want.unpricedModels))}`), tip);
    assert.match(tip, /priced per model: \$0\.0090 \(2 steps\)/);
    const rec = await tooltip(files.recorded);
    assert.match(rec, /Cost of the session: \$0\.25 · 1 step/);
    assert.match(rec, /recorded by the agent: \$0\.25 \(1 step\)/);
    const local = await tooltip(files.local);
    assert.match(local, /unpriced, not in the total: 1 step, 1\.1k tokens of local-llama/);
  });

  it("a fork's tooltip: what its path cost, the part it inherited named by its source's title (issue 25)", async () => {
    const source = readFileSync(files.recorded, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    // A pi fork: a new header written at fork time naming its source, the path's entries copied unchanged.
    const fork = writeSession([{ ...source[0], id: "f0f0f0f0-0000-4000-8000-000000000000", timestamp: new Date().toISOString(), parentSession: files.recorded }, ...source.slice(1)], { dir: dirname(files.recorded), name: "2026-01-04T00-00-00-000Z_fork.jsonl" });
    const tip = await tooltip(fork);
    assert.match(tip, /Cost of the session: \$0\.25 · 1 step/);
    assert.match(tip, /of which \$0\.25 \(1 step\) inherited from 'recorded': made once, counted in that session's total/);
    rmSync(fork);
    await api.sessionsView.refresh();
  });

  it("showCost: the rows show each session's cost once it is computed in the background", async () => {
    await cfg().update("showCost", true, vscode.ConfigurationTarget.Global);
    await until("the recorded session's row to show $0.25", async () => /· \$0\.25$/.test(String(api.sessionsView.getTreeItem(await node(files.recorded)).description)), 20_000);
    await until("the local session's row to show an unpriced mark", async () => /· \$0\.00\+$/.test(String(api.sessionsView.getTreeItem(await node(files.local)).description)), 20_000);
    await cfg().update("showCost", false, vscode.ConfigurationTarget.Global);
    await until("the rows to drop the cost", async () => !/\$/.test(String(api.sessionsView.getTreeItem(await node(files.recorded)).description)));
  });

  it("Total Cost of a project over all time: every session summed, the report opened read-only", async () => {
    const out = (await vscode.commands.executeCommand("agentSessions.totalCost", "all", CWD)) as TotalCostOutcome;
    const costs = await Promise.all([files.priced, files.recorded, files.local].map((f) => expectedCost(f)));
    const usd = costs.reduce((a, c) => a + c.total.usd, 0);
    assert.ok(Math.abs(out.total.usd - usd) < 1e-12, `${out.total.usd} != ${usd}`);
    assert.equal(out.total.steps, 4);
    assert.deepEqual(out.unpricedModels, ["local-llama"]);
    assert.equal(out.sessions.length, 3);
    assert.deepEqual(out.byProject.map((p) => p.project), [CWD]);
    const editor = await until("the report in the active editor", () => vscode.window.activeTextEditor?.document.uri.toString() === out.uri.toString() && vscode.window.activeTextEditor);
    assert.equal(editor.document.getText(), out.text);
    assert.match(out.text, /^All time, project \/home\/ana\/costs: 3 session file\(s\) with steps, all time$/m);
    assert.match(out.text, /^total \$0\.2590 {2}4 step\(s\): 1 recorded \$0\.2500, 2 priced \$0\.0090, 1 unpriced$/m);
    assert.notEqual(out.uri.scheme, "file", "not a file on disk: nothing to save over");
  });

  it("Session Cost Report from a session's context menu: a read-only document with the split, by model and day, and the reconciliation", async () => {
    const out = (await vscode.commands.executeCommand("agentSessions.sessionCost", await node(files.recorded))) as SessionCostOutcome;
    const editor = await until("the report in the active editor", () => vscode.window.activeTextEditor?.document.uri.toString() === out.uri.toString() && vscode.window.activeTextEditor);
    assert.equal(editor.document.getText(), out.text);
    assert.notEqual(out.uri.scheme, "file");
    assert.match(out.text, /^recorded \(.*_recorded\.jsonl\)$/m, "titled by the session's first message, the path after it");
    assert.match(out.text, /^total \$0\.2500 {2}1 step\(s\): 1 recorded \$0\.2500/m);
    assert.match(out.text, /^model +usd +split$/m);
    // The agent recorded $0.25 for 1,000 input and 100 output tokens of Sonnet: $0.0045 at list price.
    assert.match(out.text, /^claude-sonnet-4-5 \[table: claude-sonnet-4-5\] +1 +1\.1k +\$0\.2500 \(1\) +\$0\.0045 +-\$0\.245500 /m);
    const total = (await vscode.commands.executeCommand("agentSessions.totalCost", "all", CWD)) as TotalCostOutcome;
    assert.match(total.text, /^reconciliation: the agent's own recorded cost beside our price for the same tokens/m);
    assert.match(total.text, /^local-llama \[no price\] /m);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  it("Total Cost on a project node with the last 7 days: steps of January are not in it", async () => {
    const projects = await api.sessionsView.getChildren();
    const project = projects.find((p) => p.kind === "project" && p.group.cwd === CWD);
    const out = (await vscode.commands.executeCommand("agentSessions.projectTotalCost", project, "7d")) as TotalCostOutcome;
    assert.equal(out.filesRead, 3, "written today: read");
    assert.equal(out.total.steps, 0, "their steps are dated January 2026");
    assert.match(out.text, /^Last 7 days, project \/home\/ana\/costs: 0 session file\(s\) with steps, since \d{4}-\d\d-\d\d \(UTC\)$/m);
  });

  it("Total Cost from the palette asks for a range and a project (the first of each: today, all projects)", async () => {
    let out: TotalCostOutcome | undefined;
    let done = false;
    const running = Promise.resolve(vscode.commands.executeCommand("agentSessions.totalCost")).then((r) => {
      out = r as TotalCostOutcome;
      done = true;
    });
    // Accepts whatever quick pick is open (a no-op while none is) until the command is through both.
    await until("the command to finish", async () => {
      if (!done) await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      return done;
    }, 30_000);
    await running;
    assert.ok(out, "a result, not a dismissal");
    const today = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000).toISOString();
    assert.equal(out.range.since, today);
    assert.match(out.text, /^Today, all projects: /);
    assert.ok(out.filesRead >= 3, `read ${out.filesRead} file(s)`);
  });

  it("modelPrices: a bad entry is named in the log; a price applies at once to the open explorer, the tooltips and Total Cost", async () => {
    await vscode.commands.executeCommand("agentSessions.openSession", vscode.Uri.file(files.local));
    const panel = await until("the panel", () => api.panelFor(files.local));
    await until("the panel's cost", () => panel.stats.lastCost);
    assert.equal(panel.stats.lastCost?.unpricedSteps, 1);
    assert.deepEqual(panel.stats.lastCost?.unpricedModels, ["local-llama"]);
    await cfg().update("modelPrices", { "local-": LOCAL_PRICE, broken: { input: 1 } }, vscode.ConfigurationTarget.Global);
    await until("the explorer's cost to be priced", () => panel.stats.lastCost?.unpricedSteps === 0);
    const want = await expectedCost(files.local, { "local-": LOCAL_PRICE });
    assert.ok(Math.abs((panel.stats.lastCost?.usd ?? 0) - want.total.usd) < 1e-12);
    assert.match(await tooltip(files.local), /priced per model: \$0\.0020 \(1 step\)/);
    const out = (await vscode.commands.executeCommand("agentSessions.totalCost", "all", CWD)) as TotalCostOutcome;
    assert.equal(out.total.unpricedSteps, 0);
    await until("the bad entry in the log", () => logText(api.logDir).includes('agentSessions.modelPrices["broken"]: output missing'));
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });
});
