import { piIndexHooks } from "../../src/core/formats/pi/index-hooks";
import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { IndexBuilder } from "../../src/core/store/index-builder";
import { type RawLine, scanLines } from "../../src/core/store/line-scanner";
import { header, tempDir, user } from "../helpers/session-builder";

interface Seen {
  lineNo: number;
  offset: number;
  text?: string;
  unreadBytes?: number;
  terminated: boolean;
}

async function scan(content: string, opts: { chunkSize: number; maxLineUnits: number }): Promise<Seen[]> {
  const file = join(tempDir(), "lines.jsonl");
  writeFileSync(file, content);
  const seen: Seen[] = [];
  await scanLines(file, (l: RawLine) => {
    const s: Seen = { lineNo: l.lineNo, offset: l.offset, terminated: l.terminated };
    if (l.unreadBytes !== undefined) s.unreadBytes = l.unreadBytes;
    else s.text = l.buf.toString("utf8", l.start, l.end);
    seen.push(s);
  }, opts);
  return seen;
}

describe("line scanner", () => {
  it("counts a line too long for a string instead of keeping it, by its UTF-16 length", async () => {
    // Limit 40 UTF-16 units, chunks of 16 bytes: the long lines span several chunks.
    const lines = ["short", "x".repeat(100), "é".repeat(30), "😀".repeat(15), "😀".repeat(25), "after"];
    const content = `${lines.join("\n")}\n${"y".repeat(100)}`;
    const seen = await scan(content, { chunkSize: 16, maxLineUnits: 40 });
    const offsets = [0];
    for (const l of [...lines, ""]) offsets.push(offsets[offsets.length - 1] + Buffer.byteLength(l) + 1);
    assert.deepEqual(seen, [
      { lineNo: 1, offset: offsets[0], terminated: true, text: "short" },
      { lineNo: 2, offset: offsets[1], terminated: true, unreadBytes: 100 },
      // 60 bytes but 30 units: kept.
      { lineNo: 3, offset: offsets[2], terminated: true, text: "é".repeat(30) },
      // 60 bytes, 30 units (a surrogate pair each): kept; 100 bytes, 50 units: counted.
      { lineNo: 4, offset: offsets[3], terminated: true, text: "😀".repeat(15) },
      { lineNo: 5, offset: offsets[4], terminated: true, unreadBytes: 100 },
      { lineNo: 6, offset: offsets[5], terminated: true, text: "after" },
      { lineNo: 7, offset: offsets[6], terminated: false, unreadBytes: 100 },
    ]);
  });

  it("hands out every line with its offset for any chunk size, reading ahead, in a range too", async () => {
    const lines = ["{\"a\":1}", "", "é😀 mixed", "x".repeat(37), "  ", "last"];
    const content = `${lines.join("\n")}\n{"torn":`;
    const whole: Seen[] = [];
    let at = 0;
    [...lines, "{\"torn\":"].forEach((text, i) => {
      whole.push({ lineNo: i + 1, offset: at, terminated: i < lines.length, text });
      at += Buffer.byteLength(text) + 1;
    });
    for (let chunkSize = 1; chunkSize <= Buffer.byteLength(content) + 1; chunkSize++) {
      assert.deepEqual(await scan(content, { chunkSize, maxLineUnits: 1000 }), whole, `chunks of ${chunkSize}`);
    }
    // A range from the start of line 3 to the end of line 5, numbered from 3.
    const file = join(tempDir(), "range.jsonl");
    writeFileSync(file, content);
    const seen: Seen[] = [];
    const res = await scanLines(file, (l) => seen.push({ lineNo: l.lineNo, offset: l.offset, terminated: l.terminated, text: l.buf.toString("utf8", l.start, l.end) }), {
      chunkSize: 5, fromOffset: whole[2].offset, fromLine: 3, toOffset: whole[5].offset,
    });
    assert.deepEqual(seen, whole.slice(2, 5));
    assert.deepEqual(res, { endOffset: whole[5].offset, nextLine: 6, endsWithNewline: true });
  });

  it("stops at an abort with the read ahead settled, and the file can be scanned again", async () => {
    const file = join(tempDir(), "abort.jsonl");
    writeFileSync(file, "line\n".repeat(1000));
    const ctl = new AbortController();
    let seen = 0;
    await assert.rejects(scanLines(file, () => {
      if (++seen === 10) ctl.abort();
    }, { chunkSize: 50, signal: ctl.signal }), { name: "AbortError" });
    // Aborted after the chunk that held line 10 (chunks of ten lines): no more lines.
    assert.equal(seen, 10);
    let again = 0;
    await scanLines(file, () => again++, { chunkSize: 50 });
    assert.equal(again, 1000);
  });

  it("the index reports a counted line with its size and goes on", () => {
    const b = new IndexBuilder("/x.jsonl", piIndexHooks);
    const raw = (text: string, lineNo: number, unreadBytes?: number): RawLine => {
      const buf = Buffer.from(text);
      return { buf, start: 0, end: buf.length, offset: 0, lineNo, terminated: true, ...(unreadBytes !== undefined ? { unreadBytes } : {}) };
    };
    b.accept(raw(JSON.stringify(header()), 1));
    b.accept(raw("", 2, 540 * 2 ** 20));
    b.accept(raw(JSON.stringify(user("00000001", null, "q")), 3));
    assert.deepEqual(b.problems.map((p) => p.message), ["line 2: too long to read (540 MB; a JavaScript string holds at most 512 MB), skipped"]);
    assert.deepEqual(b.metas.map((m) => m.id), ["00000001"]);
  });
});
