import { strict as assert } from "node:assert";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ExtensionApi } from "../../src/extension/extension";
import type { ExportOutcome } from "../../src/extension/export-command";
import type { SessionsViewNode } from "../../src/extension/sessions-view";
import { assistant, header, user, writeSession } from "../helpers/session-builder";
import { activateWithPiProject } from "./pi-project";

/**
 * Export Session... in the real extension host: from the Sessions view's item, the HTML
 * page is written where asked and handed to the browser (vscode.env.openExternal). The
 * dialogs are answered by the command's arguments (scope, format, redaction, where).
 */

const CWD = "/home/ana/export";
/** A made-up key of the Anthropic shape (the secret scan's rule), never a real one. */
const SECRET = `sk-ant-api03-${"Zq7Xw2Lp9Kd4Rt6Vb1Nm8Hc3Jf5Gs0Ey".repeat(3)}-AbCdEfAA`;

describe("Export Session in a real VS Code extension host", function () {
  let api: ExtensionApi;
  let file = "";
  const out = join(process.env.TMPDIR ?? "/tmp", "exported-session.html");

  async function node(path: string): Promise<SessionsViewNode> {
    await api.sessionsView.refresh();
    const projects = await api.sessionsView.getChildren();
    const project = projects.find((p) => p.kind === "project" && p.group.cwd === CWD);
    assert.ok(project, "the export project is listed");
    const n = (await api.sessionsView.getChildren(project)).find((s) => s.kind === "session" && s.session.path === path);
    assert.ok(n, `${path} is listed`);
    return n;
  }

  before(async () => {
    const got = await activateWithPiProject(CWD);
    api = got.api;
    file = writeSession(
      [
        header({ cwd: CWD }),
        user("e1", null, "Export me: the page shows </script> as text"),
        assistant("e2", "e1", "Exported answer", { usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 } }),
        user("e3", "e1", "a side branch"),
        user("e4", "e2", `my key is ${SECRET} keep it safe`),
      ],
      { dir: got.dir, name: "2026-01-01T00-00-00-000Z_export.jsonl" },
    );
    rmSync(out, { force: true });
  });

  after(() => rmSync(out, { force: true }));

  it("Export Session from the Sessions view writes the HTML page and opens it", async () => {
    const outcome = (await vscode.commands.executeCommand("agentSessions.exportSession", await node(file), { leafId: null, format: "html", redact: true, out, confirm: false })) as ExportOutcome;
    assert.ok(outcome, "the command returned its outcome");
    assert.equal(outcome.file, out);
    assert.ok(existsSync(out), "the page was written");
    const html = readFileSync(out, "utf8");
    assert.match(html, /^<!DOCTYPE html>/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.ok(html.includes("Exported answer") && html.includes("a side branch"), "the whole tree is in the page");
    assert.ok(!html.includes("shows </script> as"), "session text cannot close its block");
    assert.equal(outcome.bytes, Buffer.byteLength(html));
    assert.equal(outcome.opened, true, "the page was handed to the browser");
  });

  it("Export Session as Markdown redacts the secret and opens the file in an editor", async () => {
    const md = join(process.env.TMPDIR ?? "/tmp", "exported-session.md");
    rmSync(md, { force: true });
    const outcome = (await vscode.commands.executeCommand("agentSessions.exportSession", await node(file), { leafId: "e4", format: "md", redact: true, out: md, confirm: false })) as ExportOutcome;
    assert.ok(outcome && existsSync(md), "the Markdown was written");
    const text = readFileSync(md, "utf8");
    assert.ok(text.includes("keep it safe") && !text.includes(SECRET.slice(-16)), "the secret is replaced, the rest kept");
    assert.match(text, /\[REDACTED:anthropic-api-key\]/);
    assert.ok(outcome.report.rules.some((r) => r.rule === "anthropic-api-key" && r.entryIds.includes("e4")), "the report names the rule and the entry");
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, md, "the Markdown opened in an editor");
    rmSync(md, { force: true });
  });

  it("Copy as Markdown from the explorer's row menu puts the entry, redacted, on the clipboard; Copy Branch the path to it", async () => {
    // The row menu's items as package.json offers them on a row of the explorer's webview.
    const pkg = vscode.extensions.all.find((e) => e.packageJSON?.name === "agent-session-explorer")?.packageJSON as { contributes: { menus: Record<string, Array<{ command: string; when?: string }>> } };
    for (const command of ["agentSessions.menu.copyMarkdown", "agentSessions.menu.copyBranchMarkdown"]) {
      const item = pkg.contributes.menus["webview/context"].find((m) => m.command === command);
      assert.ok(item?.when?.includes("webviewSection == 'row'"), `${command} is on the row menu`);
    }
    await vscode.commands.executeCommand("agentSessions.openSession", vscode.Uri.file(file));
    await vscode.env.clipboard.writeText("");
    // The context VS Code hands a webview/context command: the row's data-vscode-context.
    await vscode.commands.executeCommand("agentSessions.menu.copyMarkdown", { webview: "agentSessions.explorer", webviewSection: "row", entryId: "e4", sessionPath: file });
    const entry = await vscode.env.clipboard.readText();
    assert.ok(entry.includes("keep it safe"), `the entry is copied: ${entry.slice(0, 200)}`);
    assert.ok(!entry.includes(SECRET.slice(-16)) && /\[REDACTED:anthropic-api-key\]/.test(entry), "the copied text is redacted");
    assert.ok(!entry.includes("Exported answer"), "only the entry, not its branch");
    await vscode.commands.executeCommand("agentSessions.menu.copyBranchMarkdown", { webview: "agentSessions.explorer", webviewSection: "row", entryId: "e4", sessionPath: file });
    const branch = await vscode.env.clipboard.readText();
    assert.ok(branch.includes("Export me") && branch.includes("Exported answer") && branch.includes("keep it safe"), "the branch root..entry is copied");
    assert.ok(!branch.includes("a side branch"), "not the other branch");
  });
});
