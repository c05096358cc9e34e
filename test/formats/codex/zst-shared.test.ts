import { strict as assert } from "node:assert";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadCodex } from "../../../src/core/formats/codex/session";
import { generateCodexRollout } from "../../../bench/generate-codex";
import { record } from "../../helpers/index-picture";
import { rawZst, recorded, tempHome } from "./helpers";

const NAME = "rollout-2026-11-26T05-00-00-01a2166c-0000-7000-8000-0000000000cc.jsonl";

describe("Codex .zst rollouts: two loads of the same file at once", () => {
  it("a load cancelled midway does not fail another load of the same .zst that waits on its copy", async function () {
    this.timeout(120_000);
    const { day } = tempHome();
    const plain = join(day, NAME);
    const { main, compact } = recorded();
    generateCodexRollout({ sources: [main, compact], targetBytes: 6 * 2 ** 20, out: plain });
    const zstHome = tempHome();
    const zst = join(zstHome.day, `${NAME}.zst`);
    writeFileSync(zst, rawZst(readFileSync(plain), 1_000_000));
    const ac = new AbortController();
    // The first load makes the copy (and cancels itself once it is under way); the second waits on that copy.
    const first = loadCodex(zst, { signal: ac.signal, onProgress: () => ac.abort(new Error("closed by the user")) });
    const second = loadCodex(zst);
    await assert.rejects(first, /closed by the user/);
    const s = await second;
    const want = await loadCodex(plain);
    assert.ok(want.metas.length > 1000);
    assert.deepEqual(s.metas.map(record), want.metas.map(record));
    assert.deepEqual(s.entryAt(s.metas.length - 1), want.entryAt(want.metas.length - 1));
  });
});
