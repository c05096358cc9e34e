import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { runHostileMatrix } from "../helpers/hostile-matrix/matrix";

/** A number from the environment, else the default (budgets can be raised on a slow machine). */
const knob = (name: string, fallback: number) => (Number(process.env[name]) > 0 ? Number(process.env[name]) : fallback);

// A safety net, not a target: on a quiet machine the matrix takes a few minutes; cells left when it is spent fail as "not run".
const WALL_MINUTES = knob("ASE_MATRIX_WALL_MINUTES", 20);

/**
 * Issue 23: hostile sessions of every format (and files of none) under every command of the
 * built CLI, and OpenCode's hostile databases (issue 29) under the commands that read one,
 * each run with a time and a memory budget: exit 0 or 2, a one-line error naming the file (a
 * database's session by its address), no stack trace, the inputs byte-identical, nothing
 * outside the temp dir touched.
 */
describe("hostile matrix: every command over every hostile file (dist/cli.js)", function () {
  // The wall budget bounds the cells; setting up the big files and the report come on top.
  this.timeout((WALL_MINUTES + 5) * 60_000);

  it("exits 0 or 2 with a one-line error in every cell, within budgets, touching nothing outside", async () => {
    const cli = resolve("dist/cli.js");
    assert.ok(existsSync(cli), "build the CLI first (node esbuild.mjs)");
    const only = process.env.ASE_MATRIX_ONLY;
    const m = await runHostileMatrix({
      cli,
      projectDir: resolve("."),
      cellSeconds: knob("ASE_MATRIX_CELL_SECONDS", 60),
      wallMinutes: WALL_MINUTES,
      rssMiB: knob("ASE_MATRIX_RSS_MIB", 2560),
      heapMiB: knob("ASE_MATRIX_HEAP_MIB", 2048),
      poolSize: 2,
      sizes: { bigLineBytes: knob("ASE_MATRIX_BIG_LINE_MB", 200) * 1_000_000, sparseBytes: knob("ASE_MATRIX_SPARSE_GIB", 3) * 2 ** 30 },
      only: only ? new RegExp(only) : undefined,
      keep: process.env.ASE_MATRIX_KEEP === "1",
    });
    console.log(`\n${m.report}(report: ${m.reportFile})`);
    assert.deepEqual(m.outsideChanges, [], "files touched outside the temp dir");
    assert.match(m.summary, /^hostile matrix: \d+ files x \d+ commands \+ \d+ databases x \d+ commands \+ \d+ files x \d+ hostile arguments = \d+ cells, 0 failed$/, m.summary);
  });
});
