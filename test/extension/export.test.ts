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
});
