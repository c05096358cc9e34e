import { strict as assert } from "node:assert";
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../../src/core/formats/registry";
import { StaleSessionError } from "../../../src/core/store/file-stamp";
import { isLiveSession } from "../../../src/explorer/live-session";
import { tempHome } from "./helpers";

const FIX = join(process.cwd(), "test", "fixtures", "codex");
const ZST_DAY = join(FIX, "zst-home", "sessions", "2026", "11", "26");
const TWO = join(FIX, "handmade", "two-frames");

describe("a Codex .jsonl.zst rollout opens in the explorer as any live session does", () => {
  it("is a live session (the explorer's panel refused it: 'not a session file'); a refresh of the unchanged .zst adds nothing; a rewritten .zst is stale, so the panel reloads it", async () => {
    const { day } = tempHome();
    const name = readdirSync(ZST_DAY)[0];
    const zst = join(day, name);
    copyFileSync(join(ZST_DAY, name), zst);
    const s = await openSession(zst);
    assert.ok(isLiveSession(s), "a .zst session reads on like a plain one");
    assert.equal(s.complete, true);
    assert.ok(s.size > 0 && s.stamp.size === s.size, "sizes of the decompressed data");
    assert.deepEqual(await s.refresh(), { added: 0 });
    // Codex compressed it again (other frames, other bytes): what is shown is no longer the file.
    copyFileSync(join(TWO, readdirSync(TWO)[0]), zst);
    await assert.rejects(s.refresh(), (err: Error) => err instanceof StaleSessionError && err.message.includes(zst));
  });
});
