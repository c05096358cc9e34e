// A tiny runner for the e2e scripts: named checks that record pass/fail and never throw,
// a timestamped log, and the closing line test-all.mjs reads (`<name>: N passed, M failed`).

export function createChecks(name) {
  const t0 = Date.now();
  const results = [];
  const say = (msg) => console.log(`[${name}.test ${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // Called with (title, error) after a failed check; returns lines to print (what the page showed).
  let onFailure = null;
  const setFailureReporter = (fn) => { onFailure = fn; };

  /** Runs one check; returns whether it passed. */
  async function check(title, fn) {
    const t = Date.now();
    try {
      await fn();
      results.push({ name: title, ok: true });
      console.log(`  ok    ${title} (${((Date.now() - t) / 1000).toFixed(1)}s)`);
      return true;
    } catch (e) {
      results.push({ name: title, ok: false });
      console.log(`  FAIL  ${title}: ${e.message}`);
      if (onFailure) {
        const lines = await Promise.resolve().then(() => onFailure(title, e)).catch((err) => [`(failure report failed: ${err.message})`]);
        for (const line of lines || []) for (const l of String(line).split('\n')) console.log(`        ${l}`);
      }
      return false;
    }
  }

  /** Records a failure outside any check (the harness itself broke). */
  function fail(title, err) {
    results.push({ name: title, ok: false });
    console.log(`  FAIL  ${title}: ${err.message ?? err}`);
  }

  /** Prints the closing line; true when at least one check ran and all passed. */
  function finish() {
    const passed = results.filter((r) => r.ok).length;
    console.log(`${name}: ${passed} passed, ${results.length - passed} failed`);
    return results.length > 0 && passed === results.length;
  }

  return { say, sleep, check, fail, finish, results, setFailureReporter };
}
