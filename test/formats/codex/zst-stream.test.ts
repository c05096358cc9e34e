import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexSearchHooks } from "../../../src/core/formats/codex/search-text";
import { loadCodex } from "../../../src/core/formats/codex/session";
import { generateCodexRollout } from "../../../bench/generate-codex";
import { record } from "../../helpers/index-picture";
import { tempDir } from "../../helpers/session-builder";
import { rawZst, recorded, tempHome } from "./helpers";

const NAME = "rollout-2026-11-26T05-00-00-01a2166c-0000-7000-8000-0000000000aa.jsonl";

/** A home with one rollout as plain and (in a second home) as .zst; `mb` megabytes of it. */
function rolloutPair(mb: number): { plain: string; zst: string; home: string; zhome: string } {
  const { home, day } = tempHome();
  const plain = join(day, NAME);
  const { main, compact } = recorded();
  generateCodexRollout({ sources: [main, compact], targetBytes: mb * 2 ** 20, out: plain });
  const z = tempHome();
  const zst = join(z.day, `${NAME}.zst`);
  writeFileSync(zst, rawZst(readFileSync(plain)));
  return { plain, zst, home, zhome: z.home };
}

/** The CLI in a process of its own, with its temp folder `tmp`. */
function cli(tmp: string, ...args: string[]): { status: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [join(process.cwd(), "dist", "cli.js"), ...args], { encoding: "utf8", env: { ...process.env, TMPDIR: tmp, XDG_CACHE_HOME: join(tmp, "cache") } });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** Files under our spill folders in a temp folder. */
function copiesIn(tmp: string): string[] {
  return readdirSync(tmp)
    .filter((n) => n.startsWith("ase-codex-zst-"))
    .flatMap((d) => readdirSync(join(tmp, d)).map((n) => join(tmp, d, n)));
}

describe("Codex .zst rollouts: streamed, no copies left behind, the host never blocked", () => {
  it("gives the same session as the plain rollout, and a cut .zst still a clear error with the lines before it", async () => {
    const { plain, zst } = rolloutPair(3);
    const a = await loadCodex(plain);
    const b = await loadCodex(zst);
    assert.ok(a.metas.length > 1000);
    assert.deepEqual(b.metas.map(record), a.metas.map(record));
    assert.deepEqual(b.problems, a.problems);
    const cut = join(tempHome().day, `${NAME}.zst`);
    writeFileSync(cut, readFileSync(zst).subarray(0, 1_000_000));
    const c = await loadCodex(cut);
    assert.ok(c.metas.length > 100 && c.metas.length < a.metas.length);
    const problem = c.problems.find((p) => p.message.includes("zstd"));
    assert.match(problem?.message ?? "", new RegExp(`^${cut.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: the zstd data is corrupt or truncated after \\d+ decompressed bytes`));
  });

  it("decompresses for search without blocking the thread: other work runs between its chunks", async () => {
    const { zst } = rolloutPair(6);
    let ticks = 0;
    let running = true;
    const tick = () => {
      ticks++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    const copy = await codexSearchHooks.plainCopy?.(zst);
    running = false;
    assert.ok(copy && copy.size > 5 * 2 ** 20, "the copy holds the rollout");
    // One chunk of compressed data (1 MB) at a time, each read awaited: 6 MB gives at least 6 turns of the loop.
    assert.ok(ticks >= 4, `only ${ticks} other callbacks ran while 6 MB were decompressed: the thread was blocked`);
  });

  it("leaves no decompressed copy in the temp folder: the list makes none, a load's goes when its process exits, a dead process's are swept", function () {
    this.timeout(120_000);
    assert.ok(existsSync(join(process.cwd(), "dist", "cli.js")), "dist/cli.js is built with the tests");
    const { zst, zhome } = rolloutPair(1);
    const tmp = tempDir();
    const listed = cli(tmp, "list", "--dir", `codex=${zhome}`, "--json", "--no-cache");
    assert.equal(listed.status, 0, listed.err);
    assert.match(listed.out, /01a2166c-0000-7000-8000-0000000000aa/);
    assert.deepEqual(copiesIn(tmp), [], "listing a .zst wrote a copy");
    const ctx = cli(tmp, "context", zst);
    assert.equal(ctx.status, 0, ctx.err);
    assert.ok(JSON.parse(ctx.out));
    assert.deepEqual(copiesIn(tmp), [], "a load's copy outlived its process");
    // A copy of a process killed before its exit handler ran (its id is gone by now).
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    const spill = join(tmp, `ase-codex-zst-${process.getuid?.() ?? "user"}`);
    mkdirSync(spill, { recursive: true });
    const stale = join(spill, `0123456789abcdef01234567-${dead}.jsonl`);
    writeFileSync(stale, "{}\n");
    assert.equal(cli(tmp, "context", zst).status, 0);
    assert.deepEqual(copiesIn(tmp), [], "a dead process's copy was not swept");
  });
});
