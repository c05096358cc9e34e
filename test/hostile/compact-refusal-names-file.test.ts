import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");

function ase(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", env: { ...process.env, XDG_CACHE_HOME: tempDir(), ANTHROPIC_API_KEY: "" } });
}

/**
 * Found by the hostile matrix: a pi session too short to compact was refused (exit 2) with
 * "nothing to compact: ..." alone; a script compacting many files could not tell which one.
 */
describe("ase compact: the refusal of a session with nothing to compact names the file", function () {
  this.timeout(60_000);

  for (const args of [["--dry-run"], ["--strategy", "truncate"]]) {
    it(`compact ${args.join(" ")}`, () => {
      const file = writeSession([header(), user("00000001", null, "hi"), assistant("00000002", "00000001", "hello")], { dir: tempDir() });
      const r = ase(["compact", file, ...args]);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.match(r.stderr, /nothing to compact/);
      assert.ok(r.stderr.includes(file), r.stderr);
    });
  }
});
