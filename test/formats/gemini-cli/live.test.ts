import { strict as assert } from "node:assert";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../../src/core/formats/registry";
import { StaleSessionError } from "../../../src/core/store/file-stamp";
import { isLiveSession } from "../../../src/explorer/live-session";
import { tempDir } from "../../helpers/session-builder";
import { geminiMsg, lines, meta, userMsg } from "./helpers";

describe("Gemini CLI sessions read on from their file, as the explorer needs", () => {
  it("a Gemini session is a live session: unchanged, refresh reads nothing; once Gemini writes a line, refresh asks for a reload (a line may rewrite earlier messages); the file is never written", async () => {
    const file = join(tempDir(), "session-2026-11-26T06-00-0a1b2c3d.jsonl");
    writeFileSync(file, lines([meta("/p"), userMsg("u1", "one"), geminiMsg("g1", "")]));
    const s = await openSession(file);
    assert.ok(isLiveSession(s), "the explorer refuses a session that is not live (\"not a session file\")");
    assert.equal(s.size, readFileSync(file).length);
    assert.equal(s.stamp.size, s.size);
    assert.deepEqual(await s.refresh(), { added: 0 });
    // Gemini writes the streamed message again with its text: same id, replaced in place.
    appendFileSync(file, lines([geminiMsg("g1", "the answer")]));
    const before = readFileSync(file);
    await assert.rejects(s.refresh(), (e: unknown) => e instanceof StaleSessionError && /changed on disk/.test((e as Error).message));
    const again = await openSession(file);
    assert.equal(again.metas.length, 2);
    assert.ok(readFileSync(file).equals(before), "nothing written");
  });
});
