import { strict as assert } from "node:assert";
import * as vscode from "vscode";
import type { ExplorerPanel } from "../../src/extension/explorer-panel";
import type { ExtensionApi } from "../../src/extension/extension";
import type { Row } from "../../src/protocol";
import { until } from "./until";

/** Opens a session in its explorer as the command does, waits for its load, and remembers it for closing. */
export async function openPanel(api: ExtensionApi, file: string, opened: string[]): Promise<ExplorerPanel> {
  await vscode.commands.executeCommand("agentSessions.openSession", vscode.Uri.file(file));
  const panel = await until(`the panel of ${file}`, () => api.panelFor(file));
  await panel.whenLoaded();
  assert.equal(panel.failure, undefined, `load failed: ${panel.failure}`);
  opened.push(file);
  return panel;
}

/** Every row of a panel under a filter, as the webview would page them. */
export async function panelRows(panel: ExplorerPanel, filter: "all" | "default" = "all"): Promise<Row[]> {
  const { rowCount } = await panel.answer({ type: "setFilter", requestId: 0, filter });
  return (await panel.answer({ type: "rows", requestId: 0, start: 0, count: rowCount })).rows;
}
