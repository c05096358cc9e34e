import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { assistant, header, tempDir, toolResult, user, writeSession } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");

/**
 * Found by the hostile matrix: `ase branch` walked the raw parentId of each entry from the
 * leaf, so a parent cycle the reader had cut (and reported) made it loop forever. It runs
 * as a child with a time limit, since an endless loop in-process would hang the suite.
 */
describe("ase branch on a session whose parents loop", function () {
  this.timeout(120_000);

  for (const [what, leafParent] of [
    ["a self-parented leaf", "00000006"],
    ["a leaf inside a cycle (1 -> 4 -> 3 -> 2 -> 1)", "00000004"],
  ] as const) {
    it(`ends, moving the leaf, on ${what}`, () => {
      const file = writeSession(
        [
          header(),
          user("00000001", "00000004", "first"),
          assistant("00000002", "00000001", "reading", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "a.ts" } }] }),
          toolResult("00000003", "00000002", "c1", "read", "text"),
          assistant("00000004", "00000003", "done"),
          user("00000005", "00000001", "side"),
          assistant("00000006", leafParent, "leaf"),
        ],
        { dir: tempDir() },
      );
      const before = readFileSync(file, "utf8");
      const r = spawnSync(process.execPath, [CLI, "branch", file, "--to", "00000005"], { encoding: "utf8", timeout: 60_000, env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
      assert.equal(r.signal, null, "killed at the time limit: branch did not end");
      assert.equal(r.status, 0, r.stderr);
      const after = readFileSync(file, "utf8");
      assert.ok(after.startsWith(before), "only appended to");
      const added = after.slice(before.length).trim().split("\n").map((l) => JSON.parse(l) as { type: string; parentId: string });
      assert.equal(added.length, 1);
      assert.equal(added[0].type, "branch_summary");
      assert.equal(added[0].parentId, "00000005");
    });
  }
});
