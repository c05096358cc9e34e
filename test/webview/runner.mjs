// The webview suite's runner: tests register here, run one after another, and share one
// Chromium launched when the first test that needs it starts. A test that cannot run
// (a real fixture missing outside CI) is counted and named as not run, never passed.
import { chromium } from "playwright-core";

/** Thrown by a test that could not run; counted and reported, never a pass. */
export class NotRun extends Error {}

const tests = [];
const cleanups = [];
let current;

/** The shared browser once launched (a live binding: `() => browser` reads it at call time). */
export let browser;

/**
 * Registers a test. `needsBrowser: false` marks a test of a pure module run in Node, so a
 * grep that selects only such tests starts no Chromium.
 */
export function test(name, fn, { needsBrowser = true } = {}) {
  if (tests.some((t) => t.name === name)) throw new Error(`two webview tests are named "${name}"`);
  tests.push({ name, fn, needsBrowser });
}

/** The name of the test running now (for artifacts named after it). */
export function currentTest() {
  return current;
}

/** Runs fn after the running test, passed or failed (temp dirs, hosts). */
export function afterThisTest(fn) {
  cleanups.push(fn);
}

async function launch() {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

/**
 * Runs the registered tests (only those whose name holds ASE_WEBVIEW_GREP when set),
 * prints `webview: N passed, M failed[, K not run]` and sets the exit code (1 on a failure).
 */
export async function run({ before } = {}) {
  await before?.();
  const grep = process.env.ASE_WEBVIEW_GREP;
  const counts = { passed: 0, failed: 0, notRun: 0 };
  try {
    for (const t of tests) {
      if (grep && !t.name.includes(grep)) continue;
      if (t.needsBrowser && !browser) browser = await launch();
      current = t.name;
      const t0 = Date.now();
      try {
        await t.fn();
        counts.passed++;
        console.log(`  ✓ ${t.name} (${Date.now() - t0} ms)`);
      } catch (err) {
        if (err instanceof NotRun) {
          counts.notRun++;
          console.log(`  - NOT RUN: ${t.name}: ${err.message}`);
        } else {
          counts.failed++;
          console.log(`  ✗ ${t.name}\n      ${String(err?.stack ?? err).split("\n").slice(0, 6).join("\n      ")}`);
        }
      } finally {
        for (const fn of cleanups.splice(0).reverse()) await Promise.resolve().then(fn).catch((e) => console.log(`      clean-up failed: ${e?.message ?? e}`));
        current = undefined;
      }
    }
  } finally {
    await browser?.close();
  }
  if (grep && !counts.passed && !counts.failed && !counts.notRun) {
    counts.failed++;
    console.log(`  ✗ no webview test's name holds ASE_WEBVIEW_GREP="${grep}"`);
  }
  // scripts/test-all.mjs reads this line; "not run" is counted there, never as passed.
  console.log(`webview: ${counts.passed} passed, ${counts.failed} failed${counts.notRun ? `, ${counts.notRun} not run` : ""}`);
  process.exitCode = counts.failed ? 1 : 0;
}
