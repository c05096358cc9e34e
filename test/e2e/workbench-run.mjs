// The frame of an e2e script on the extension from this folder: the toolchain checked, the
// extension built, a throwaway folder with empty agent stores (the script fills them), a
// real VS Code (code-server) and Chromium started on them, the checks run, both always
// stopped, the closing line printed and the exit code set (0 pass, 1 fail, 2 no set-up).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { failureReport, launchBrowser, openWorkbench } from '../../scripts/e2e/browser.mjs';
import { startCodeServer, workbenchUrl } from '../../scripts/e2e/code-server.mjs';
import { assertInstalled } from '../../scripts/e2e/paths.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'e2e');

/**
 * Runs `body({ page, files })` in the workbench. `checks` is the script's createChecks(name);
 * `stores(work)` writes its sessions under <work>/agent/sessions, <work>/claude/projects and
 * <work>/clawdcode/projects (the agents' stores the extension is pointed at) and returns
 * what the body needs of them. The work folder is removed when every check passed.
 */
export async function runOnWorkbench(checks, name, stores, body) {
  try {
    assertInstalled();
  } catch (e) {
    console.error(`${name}: ${e.message}`);
    process.exit(2);
  }
  const built = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(1);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `ase-${name}-`));
  const workspace = path.join(work, 'workspace');
  fs.mkdirSync(workspace);
  for (const store of [['agent', 'sessions'], ['claude', 'projects'], ['clawdcode', 'projects']]) fs.mkdirSync(path.join(work, ...store), { recursive: true });
  const files = stores(work);
  let server;
  let browser;
  try {
    server = await startCodeServer({
      workspace, runDir: path.join(work, 'run'),
      env: { PI_CODING_AGENT_DIR: path.join(work, 'agent'), CLAUDE_CONFIG_DIR: path.join(work, 'claude'), CLAWDCODE_DIR: path.join(work, 'clawdcode') },
    });
    browser = await launchBrowser({ profileDir: path.join(work, 'chromium') });
    const { page } = browser;
    checks.setFailureReporter((title) => failureReport(page, path.join(ARTIFACTS, `${name}-failure-${title.slice(0, 30).replace(/\W+/g, '-')}.png`)));
    checks.say(`workbench restored in ${((await openWorkbench(page, workbenchUrl({ port: server.port, workspace, extensionDevelopmentPath: ROOT }))) / 1000).toFixed(1)}s`);
    await body({ page, files });
  } catch (e) {
    checks.fail('the harness', e);
  } finally {
    if (browser) await browser.close();
    if (server) await server.stop();
  }
  const ok = checks.finish();
  if (ok) fs.rmSync(work, { recursive: true, force: true });
  else checks.say(`files kept in ${work}`);
  process.exit(ok ? 0 : 1);
}
