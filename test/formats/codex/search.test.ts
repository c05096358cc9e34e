import { strict as assert } from "node:assert";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { searchSessions, type SessionSearch } from "../../../src/core/search/search-sessions";
import type { SessionHits } from "../../../src/core/search/search-types";
import { recorded, tempHome } from "./helpers";

const ZST_DAY = join(process.cwd(), "test", "fixtures", "codex", "zst-home", "sessions", "2026", "11", "26");

async function run(pattern: string, home: string, regex = false): Promise<{ res: SessionHits[]; search: SessionSearch }> {
  const search = searchSessions({ pattern, regex, dirs: { codex: home }, only: ["codex"], env: {} });
  const res: SessionHits[] = [];
  for await (const s of search) res.push(s);
  return { res, search };
}

/** The 1-based line of the plain rollout holding `text`. */
function lineOf(file: string, text: string): number {
  return readFileSync(file, "utf8").split("\n").findIndex((l) => l.includes(text)) + 1;
}

describe("Codex search inside .jsonl.zst rollouts (decompressed by streaming, then searched as the plain file)", () => {
  it("finds a prompt held only inside a .zst rollout, at the line it has in the plain rollout", async () => {
    const { home, day } = tempHome();
    const zst = readdirSync(ZST_DAY)[0];
    copyFileSync(join(ZST_DAY, zst), join(day, zst));
    for (const regex of [false, true]) {
      const { res, search } = await run("run TOOLS", home, regex);
      assert.deepEqual(search.skipped, []);
      assert.equal(res.length, 1, `regex ${regex}`);
      assert.equal(res[0].path, join(day, zst));
      assert.equal(res[0].agent, "codex");
      assert.match(res[0].cwd, /\/project$/);
      const hit = res[0].hits.find((h) => h.kind === "user");
      assert.ok(hit, JSON.stringify(res[0].hits));
      assert.equal(hit.line, lineOf(recorded().main, "Please run TOOLS"));
      assert.match(hit.snippet, /run TOOLS/);
    }
  });

  it("a truncated .zst: the part before the cut is searched, and the search says which file was cut", async () => {
    const { home, day } = tempHome();
    // The main rollout in two zstd frames (hand-made with zstd): cut inside the second, the first still reads.
    const TWO = join(process.cwd(), "test", "fixtures", "codex", "handmade", "two-frames");
    const zst = readdirSync(TWO)[0];
    const bytes = readFileSync(join(TWO, zst));
    writeFileSync(join(day, zst), bytes.subarray(0, bytes.length - 200));
    const { res, search } = await run("Say hello", home);
    assert.equal(res.length, 1);
    assert.ok(res[0].hits.some((h) => h.kind === "user"));
    assert.ok(search.skipped.some((s) => s.path === join(day, zst) && /corrupt or truncated/.test(s.reason)), JSON.stringify(search.skipped));
  });
});
