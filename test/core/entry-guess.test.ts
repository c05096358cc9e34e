import { strict as assert } from "node:assert";
import { statSync } from "node:fs";
import { guessEntries } from "../../src/core/store/entry-guess";
import { Session } from "../../src/core/formats/pi/pi-session";
import { assistant, header, toolResult, user, writeSession, type Raw } from "../helpers/session-builder";

/** A session of `n` turns whose lines vary from ~300 bytes to ~6 KB, in a repeating pattern. */
function mixedSession(n: number): string {
  const lines: Raw[] = [header()];
  let parent: string | null = null;
  for (let k = 0; k < n; k++) {
    const id = k.toString(16).padStart(8, "0");
    const text = "word ".repeat(20 + ((k * 37) % 1200));
    lines.push(k % 3 === 0 ? user(id, parent, text) : k % 3 === 1 ? assistant(id, parent, text) : toolResult(id, parent, `call${k}`, "read", text));
    parent = id;
  }
  return writeSession(lines);
}

describe("room set aside before a load (entry-guess.ts)", () => {
  it("the guess covers the entries of a file and of a range, without running far over", async () => {
    const file = mixedSession(3000);
    const size = statSync(file).size;
    assert.ok(size > 4 * 2 ** 20, `only ${size} bytes: both samples should be read`);
    const s = await Session.load(file);
    const entries = s.metas.length;
    const whole = guessEntries(file, 0, size);
    assert.ok(whole >= entries && whole <= 2 * entries, `guessed ${whole} for ${entries} entries`);
    // A range: the second half by bytes.
    const mid = s.metas[Math.floor(entries / 2)];
    const rest = entries - Math.floor(entries / 2);
    const half = guessEntries(file, mid.offset, size);
    assert.ok(half >= rest && half <= 2 * rest, `guessed ${half} for the ${rest} entries from byte ${mid.offset}`);
    assert.equal(guessEntries(file, size, size), 0);
  });

  it("lines shorter than any entry cannot drive the guess past one entry per 128 bytes", () => {
    const file = writeSession(Array.from({ length: 50_000 }, () => "{}"));
    const size = statSync(file).size;
    assert.equal(guessEntries(file, 0, size), Math.ceil(size / 128));
  });

  it("loads that set room aside (one thread past 8 MB, and the worker's half) index every entry alike", async () => {
    const file = mixedSession(6000);
    assert.ok(statSync(file).size > 8 * 2 ** 20, "the one-thread load must be past the size that sets room aside");
    const one = await Session.load(file, { secondThread: false });
    const two = await Session.load(file, { secondThread: true });
    assert.equal(one.threads, 1);
    assert.equal(two.threads, 2);
    assert.equal(one.metas.length, 6000);
    assert.equal(two.metas.length, 6000);
    const fields = (m: (typeof one.metas)[number]) => [m.id, m.parentId, m.type, m.role, m.offset, m.length, m.line, m.preview, m.estimate, JSON.stringify(m.usage)];
    for (let i = 0; i < 6000; i++) assert.deepEqual(fields(one.metas[i]), fields(two.metas[i]), `entry ${i}`);
  });
});
