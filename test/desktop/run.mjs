#!/usr/bin/env node
// `npm run test:desktop`: the same in-host extension suite as test/extension, in desktop
// VS Code through @vscode/test-electron. It downloads VS Code, so it runs only where
// that download is possible (not on this project's CI machines, which use code-server).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runTests } from "@vscode/test-electron";

const root = resolve(import.meta.dirname, "..", "..");
const built = spawnSync(process.execPath, ["esbuild.mjs", "--ext-tests"], { cwd: root, stdio: "inherit" });
if (built.status !== 0) process.exit(1);
const work = mkdtempSync(join(tmpdir(), "ase-desktop-test-"));
const agentDir = join(work, "agent");
const workspace = join(work, "workspace");
mkdirSync(join(agentDir, "sessions"), { recursive: true });
mkdirSync(workspace, { recursive: true });
try {
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, "out", "test-ext", "index.js"),
    launchArgs: [workspace, "--disable-extensions", "--disable-workspace-trust"],
    extensionTestsEnv: { PI_CODING_AGENT_DIR: agentDir },
  });
  console.log("desktop: extension tests passed");
} catch (err) {
  console.error(`desktop: extension tests failed or VS Code could not be downloaded: ${err instanceof Error ? err.message : err}`);
  process.exit(1);
}
