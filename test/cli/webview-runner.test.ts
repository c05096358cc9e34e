import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { tempDir } from "../helpers/session-builder";

// The webview suite's runner (test/webview/runner.mjs) decides what `npm test` counts for the
// Chromium layer; here it runs a small suite of Node-only tests, so no browser is needed.
const RUNNER = pathToFileURL(resolve("test/webview/runner.mjs")).href;

function suite(dir: string, body: string): string {
  const file = join(dir, "suite.mjs");
  writeFileSync(file, `import { NotRun, afterThisTest, browser, run, test } from ${JSON.stringify(RUNNER)};\n${body}\nawait run();\n`);
  return file;
}

function runSuite(file: string, grep?: string): { out: string; code: number | null } {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.ASE_WEBVIEW_GREP;
  if (grep !== undefined) env.ASE_WEBVIEW_GREP = grep;
  const r = spawnSync(process.execPath, [file], { encoding: "utf8", env });
  return { out: r.stdout + r.stderr, code: r.status };
}

describe("the webview suite's runner (test/webview/runner.mjs)", () => {
  const body = (dir: string): string => `
const node = { needsBrowser: false };
test("passes without a browser", async () => { if (browser !== undefined) throw new Error("a browser was launched"); }, node);
test("passes after cleaning up", async () => { afterThisTest(() => {}); }, node);
test("needs a missing fixture", async () => { throw new NotRun("fixture not found at /x.jsonl"); }, node);
test("fails and still cleans up", async () => {
  afterThisTest(async () => (await import("node:fs")).writeFileSync(${JSON.stringify(join(dir, "cleaned"))}, ""));
  throw new Error("the assert that failed");
}, node);`;

  it("counts passed, failed and not run in the summary line, names the test not run, and exits 1 on a failure", () => {
    const dir = tempDir();
    const { out, code } = runSuite(suite(dir, body(dir)));
    assert.match(out, /^webview: 2 passed, 1 failed, 1 not run$/m);
    assert.match(out, /- NOT RUN: needs a missing fixture: fixture not found at \/x\.jsonl/);
    assert.match(out, /✗ fails and still cleans up\n\s+Error: the assert that failed/);
    assert.equal(code, 1);
    assert.ok(existsSync(join(dir, "cleaned")), "the failed test's clean-up ran");
  });

  it("ASE_WEBVIEW_GREP runs only the tests whose name holds it, and exits 0 when they pass", () => {
    const dir = tempDir();
    const { out, code } = runSuite(suite(dir, body(dir)), "passes");
    assert.match(out, /^webview: 2 passed, 0 failed$/m);
    assert.doesNotMatch(out, /fails and still cleans up/);
    assert.equal(code, 0);
  });

  it("a grep that matches no test fails instead of passing with nothing run", () => {
    const dir = tempDir();
    const { out, code } = runSuite(suite(dir, body(dir)), "no such test");
    assert.match(out, /no webview test's name holds ASE_WEBVIEW_GREP="no such test"/);
    assert.match(out, /^webview: 0 passed, 1 failed$/m);
    assert.equal(code, 1);
  });

  it("two tests with one name are refused when registered", () => {
    const dir = tempDir();
    const { out, code } = runSuite(suite(dir, `test("same", async () => {}, { needsBrowser: false });\ntest("same", async () => {}, { needsBrowser: false });`));
    assert.match(out, /two webview tests are named "same"/);
    assert.notEqual(code, 0);
  });
});
