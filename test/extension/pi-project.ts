import { strict as assert } from "node:assert";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import type { ExtensionApi } from "../../src/extension/extension";

const EXT_ID = "agent-session-explorer.agent-session-explorer";

/** The extension, activated, and a project folder of its own in the runner's throwaway pi dir. */
export async function activateWithPiProject(cwd: string): Promise<{ api: ExtensionApi; dir: string }> {
  const ext = vscode.extensions.getExtension<ExtensionApi>(EXT_ID);
  assert.ok(ext);
  const api = await ext.activate();
  const dir = join(process.env.PI_CODING_AGENT_DIR as string, "sessions", projectDirName(cwd));
  mkdirSync(dir, { recursive: true });
  return { api, dir };
}
