#!/usr/bin/env node
// The extension-host test layer: builds the extension and its in-host mocha suite, makes
// a throwaway pi agent dir, ClawdCode store and workspace, and runs the suite inside a real VS Code
// (code-server) through scripts/e2e/run-extension-tests.mjs. Exit code = the suite's.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..", "..");
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { cwd: root, stdio: "inherit", ...opts });

let r = run(process.execPath, ["scripts/e2e/setup-vscode.mjs"]);
if (r.status !== 0) {
  console.error("extension tests: could not set up code-server (see above)");
  process.exit(1);
}
r = run(process.execPath, ["esbuild.mjs", "--ext-tests"]);
if (r.status !== 0) process.exit(1);

const work = mkdtempSync(join(tmpdir(), "ase-ext-test-"));
const agentDir = join(work, "agent");
// A throwaway ClawdCode store (seed 002): the formats suite copies its fixtures in.
const clawdcodeDir = join(work, "clawdcode");
// A throwaway Claude Code store ($CLAUDE_CONFIG_DIR): the Claude Code suite copies transcripts in.
const claudeDir = join(work, "claude");
// A throwaway Gemini CLI home ($GEMINI_CLI_HOME): the Gemini suite copies recorded sessions in.
const geminiHome = join(work, "gemini");
// A throwaway Codex home ($CODEX_HOME): the Codex suite lays the recorded rollouts out in it.
const codexHome = join(work, "codex");
const workspace = join(work, "workspace");
mkdirSync(join(agentDir, "sessions"), { recursive: true });
mkdirSync(join(clawdcodeDir, "projects"), { recursive: true });
mkdirSync(join(claudeDir, "projects"), { recursive: true });
mkdirSync(join(geminiHome, ".gemini"), { recursive: true });
mkdirSync(codexHome, { recursive: true });
mkdirSync(workspace, { recursive: true });
mkdirSync(join(work, "tmp"), { recursive: true });
mkdirSync(join(root, "test-artifacts", "e2e"), { recursive: true });
r = run(process.execPath, [
  "scripts/e2e/run-extension-tests.mjs",
  "--extension", root,
  "--tests", join(root, "out", "test-ext", "index.js"),
  "--workspace", workspace,
  "--env", `PI_CODING_AGENT_DIR=${agentDir}`,
  "--env", `CLAWDCODE_DIR=${clawdcodeDir}`,
  "--env", `CLAUDE_CONFIG_DIR=${claudeDir}`,
  "--env", `GEMINI_CLI_HOME=${geminiHome}`,
  "--env", `CODEX_HOME=${codexHome}`,
  "--env", `TMPDIR=${join(work, "tmp")}`,
  "--screenshot", join(root, "test-artifacts", "e2e", "extension-tests.png"),
  "--timeout", "600",
]);
if (r.status === 0) rmSync(work, { recursive: true, force: true });
else console.error(`extension tests failed; files kept in ${work}`);
process.exit(r.status ?? 1);
