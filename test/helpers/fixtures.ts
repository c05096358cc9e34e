import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The real pi sessions live in ../shared/fixtures/pi (never copied into the project).
 * A clone without ../shared runs the rest and says plainly how many tests did not run;
 * in CI (CI=true) a missing fixture is a failure, never a skip.
 */
export const FIXTURE_DIR = resolve(process.env.ASE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "pi"));

export const REAL_SESSIONS = ["before-compaction", "large-session"] as const;

export function fixturesPresent(): boolean {
  return REAL_SESSIONS.every((n) => existsSync(join(FIXTURE_DIR, `${n}.jsonl`)));
}

export function fixture(name: string): string {
  return join(FIXTURE_DIR, name);
}

/**
 * The entries of a real session as raw parsed lines, by 1-based line number (the header
 * left out): an index's EntryMeta.line finds its own line here, in v1 files too, whose
 * entries only get ids when loaded.
 */
export function rawEntriesByLine(name: string): Map<number, Record<string, unknown>> {
  const out = new Map<number, Record<string, unknown>>();
  readFileSync(fixture(`${name}.jsonl`), "utf8").split("\n").forEach((line, k) => {
    if (!line.trim()) return;
    const e = JSON.parse(line) as Record<string, unknown>;
    if (e.type !== "session") out.set(k + 1, e);
  });
  return out;
}

let notRun = 0;

/** Call at the top of a test that needs the real fixtures. */
export function needFixtures(ctx: Mocha.Context): void {
  if (fixturesPresent()) return;
  if (process.env.CI) throw new Error(`real fixtures missing at ${FIXTURE_DIR} (CI must have ../shared)`);
  notRun++;
  ctx.skip();
}

after(function () {
  if (notRun) console.log(`\n  NOTE: ${notRun} test(s) NOT RUN: real pi fixtures not found at ${FIXTURE_DIR} (set ASE_FIXTURES or clone with ../shared beside the project)\n`);
});

/**
 * A guard for tests that read one folder of ../shared: `need(ctx, ...files)` lets the
 * test run when the files are there, fails it under CI (CI always has ../shared), and
 * otherwise skips it and counts it, so the run ends saying plainly how many did not run.
 */
export function sharedFolderGuard(label: string, dir: string, envVar: string): (ctx: Mocha.Context, ...files: string[]) => void {
  let skipped = 0;
  after(function () {
    if (skipped) console.log(`\n  NOTE: ${skipped} ${label} test(s) NOT RUN: fixtures not found at ${dir} (set ${envVar} or clone with ../shared beside the project)\n`);
  });
  return (ctx, ...files) => {
    if (files.every((f) => existsSync(join(dir, f)))) return;
    if (process.env.CI) throw new Error(`${label} fixtures missing at ${dir} (CI must have ../shared)`);
    skipped++;
    ctx.skip();
  };
}
