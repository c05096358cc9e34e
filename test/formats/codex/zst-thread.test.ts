import { strict as assert } from "node:assert";
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CodexFileSession, CodexZstSession, loadCodex } from "../../../src/core/formats/codex/session";
import { overrideZstWorkerSource, zstThreads } from "../../../src/core/formats/codex/zst-stream";
import type { SessionReader } from "../../../src/core/session/session-reader";
import { generateCodexRollout } from "../../../bench/generate-codex";
import { record } from "../../helpers/index-picture";
import { rawZst, recorded, tempHome } from "./helpers";

const NAME = "rollout-2026-11-26T05-00-00-01a2166c-0000-7000-8000-0000000000bb.jsonl";
const FIX = join(process.cwd(), "test", "fixtures", "codex");

/** Everything a load indexed, the Codex hooks' own notes included: two loads compared whole. */
function picture(s: SessionReader) {
  const file = s instanceof CodexZstSession ? s.file : (s as CodexFileSession);
  return {
    records: s.metas.map(record),
    problems: s.problems,
    leaves: s.tree.leaves().map((i) => s.metas[i].id),
    turnOf: [...file.hooks.turnOf],
    responseOf: [...file.hooks.responseOf],
    windows: file.hooks.windows,
    header: file.headerRecord,
  };
}

/** A .zst of `plain` in frames of `frameBytes` (cut anywhere, mid-line too), in a home of its own (with `beside`: a fork's parent). */
function zstOf(plain: string, frameBytes: number, beside: string[] = []): string {
  const { day } = tempHome();
  for (const f of beside) copyFileSync(f, join(day, f.split("/").pop() as string));
  const zst = join(day, `${plain.split("/").pop()}.zst`);
  writeFileSync(zst, rawZst(readFileSync(plain), frameBytes));
  return zst;
}

/** A generated rollout of about `mb` megabytes. */
function generated(mb: number): string {
  const plain = join(tempHome().day, NAME);
  const { main, compact } = recorded();
  generateCodexRollout({ sources: [main, compact], targetBytes: mb * 2 ** 20, out: plain });
  return plain;
}

const spillDir = () => join(tmpdir(), `ase-codex-zst-${process.getuid?.() ?? "user"}`);

/** This process's copies in the temp folder's spill folder. */
function copies(): string[] {
  try {
    return readdirSync(spillDir()).filter((n) => n.endsWith(`-${process.pid}.jsonl`));
  } catch {
    return [];
  }
}

/** Waits (polling, never a fixed sleep) until no .zst thread of this process runs. */
async function noThreadLeft(): Promise<void> {
  const until = Date.now() + 60_000;
  while (zstThreads().running > 0) {
    if (Date.now() > until) assert.fail(`${zstThreads().running} .zst thread(s) still running`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("Codex .zst rollouts indexed while a second thread decompresses them", () => {
  afterEach(() => overrideZstWorkerSource(null));

  it("gives the plain rollout's session field for field: every recorded rollout in frames cut mid-line, the recorded .zst, a generated multi-frame rollout; the thread is gone after", async () => {
    const { main, compact, fork } = recorded();
    const cases: Array<[string, string]> = [
      [main, zstOf(main, 7_777)],
      [compact, zstOf(compact, 50_001)],
      [fork, zstOf(fork, 1_000_000, [main])],
      [main, join(FIX, "zst-home", "sessions", "2026", "11", "26", `${main.split("/").pop()}.zst`)],
    ];
    const big = generated(4);
    cases.push([big, zstOf(big, 1_234_567)]);
    for (const [plain, zst] of cases) {
      const before = zstThreads().started;
      const a = await loadCodex(plain);
      const b = await loadCodex(zst);
      assert.equal(zstThreads().started, before + 1, `${zst} was indexed as a thread decompressed it`);
      assert.ok(a.metas.length > 10);
      assert.deepEqual(picture(b), picture(a), zst);
      // Entries are read from the copy the thread wrote.
      assert.deepEqual(b.entryAt(b.metas.length - 1), a.entryAt(a.metas.length - 1));
    }
    await noThreadLeft();
  });

  it("gives the same session with no thread to decompress on (the copy made first, on this thread)", async () => {
    const big = generated(1);
    overrideZstWorkerSource(undefined);
    const before = zstThreads().started;
    const b = await loadCodex(zstOf(big, 300_000));
    assert.equal(zstThreads().started, before);
    assert.deepEqual(picture(b), picture(await loadCodex(big)));
  });

  it("holds a few blocks at a time while indexing is slow: the thread waits (it writes the copy no further ahead), memory stays flat", async () => {
    const zst = zstOf(generated(24), 5_000_000);
    const had = new Set(copies());
    let ahead = 0;
    const s = await loadCodex(zst, {
      onProgress: (indexed) => {
        // An index slower than the decompression (a busy host): without the bound, blocks pile up.
        const until = performance.now() + 1;
        while (performance.now() < until);
        const copy = copies().find((n) => !had.has(n));
        if (copy) ahead = Math.max(ahead, statSync(join(spillDir(), copy)).size - indexed);
      },
    });
    assert.ok(s.metas.length > 10_000);
    // 8 blocks of 100 KB on their way, one being written: the other ~23 MB never wait in memory.
    assert.ok(ahead > 0 && ahead < 2 * 2 ** 20, `the thread ran ${(ahead / 2 ** 20).toFixed(1)} MB ahead of the index`);
  });

  it("ends the thread and removes its copy when the load is cancelled", async () => {
    const zst = zstOf(generated(8), 2_000_000);
    const ac = new AbortController();
    const had = copies().length;
    await assert.rejects(
      loadCodex(zst, {
        signal: ac.signal,
        onProgress: () => ac.abort(new Error("closed by the user")),
      }),
      /closed by the user/,
    );
    await noThreadLeft();
    assert.equal(copies().length, had, "the cancelled load's copy was removed");
  });

  it("ends the thread and removes its copy when indexing fails midway, and the error is the indexing's", async () => {
    const zst = zstOf(generated(8), 2_000_000);
    const had = copies().length;
    await assert.rejects(
      loadCodex(zst, {
        onProgress: () => {
          throw new Error("the host gave up");
        },
      }),
      /the host gave up/,
    );
    await noThreadLeft();
    assert.equal(copies().length, had);
    // The next load decompresses again and is whole.
    const again = await loadCodex(zst);
    assert.ok(again.metas.length > 1000);
  });

  it("a thread that fails is a clear error naming the .zst, and it is gone after", async () => {
    const zst = zstOf(generated(1), 300_000);
    overrideZstWorkerSource("throw new Error('out of memory, say')");
    await assert.rejects(loadCodex(zst), (err: Error) => err.message.startsWith(`${zst}: the decompressing thread failed`) && err.message.includes("out of memory, say"));
    await noThreadLeft();
  });
});
