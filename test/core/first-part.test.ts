import { strict as assert } from "node:assert";
import { readFileSync, statSync } from "node:fs";
import { appendEntry } from "../../src/core/formats/pi/store/append";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { Session } from "../../src/core/formats/pi/pi-session";
import { chain, picture } from "../helpers/index-picture";
import { header, type Raw, user, writeSession } from "../helpers/session-builder";

/** Byte offsets where each line of a written session starts, and the file's size. */
function lineStarts(file: string): number[] {
  const bytes = readFileSync(file);
  const starts = [0];
  for (let k = bytes.indexOf(10); k >= 0; k = bytes.indexOf(10, k + 1)) starts.push(k + 1);
  return starts;
}

describe("a first part of a large session, then the rest", () => {
  it("indexes only the lines that end within the first part, and the rest on refresh gives the one-pass load", async () => {
    const lines: Array<Raw | string> = chain(40);
    // A damaged line and a torn last line: problems keep their line numbers either way.
    lines.splice(30, 0, "{not json");
    const file = writeSession([...lines, '{"type":"message","id":"torn"'], { trailingNewline: false });
    const whole = await Session.load(file, { secondThread: false });
    const starts = lineStarts(file);
    const size = statSync(file).size;
    // Cut at every line start, one byte after it and one before the next.
    const cuts = new Set<number>();
    for (const s of starts.slice(1)) for (const d of [-1, 0, 1]) if (s + d > 0 && s + d < size) cuts.add(s + d);
    for (const cut of cuts) {
      const part = await Session.load(file, { firstPart: cut, secondThread: false });
      const lineStart = Math.max(...starts.filter((s) => s <= cut));
      if (lineStart === 0) {
        // Not even the header line fits: the whole file is read at once.
        assert.deepEqual(picture(part), picture(whole), `cut ${cut}`);
        assert.equal(part.complete, true);
        continue;
      }
      assert.equal(part.size, lineStart, `cut ${cut}`);
      assert.equal(part.complete, false, `cut ${cut}`);
      assert.deepEqual(part.metas.map((m) => m.id), whole.metas.filter((m) => m.offset + m.length < lineStart).map((m) => m.id), `cut ${cut}`);
      // A torn line is only the file's last one: a cut never makes one.
      assert.ok(part.problems.every((p) => !/torn|no newline/i.test(p.message)), `cut ${cut}: ${part.problems.map((p) => p.message)}`);
      const progress: number[] = [];
      const { added } = await part.refresh({ secondThread: false, onProgress: (done, total) => progress.push(done, total) });
      assert.equal(added, whole.metas.length - (part.metas.length - added));
      assert.equal(part.complete, true);
      assert.deepEqual(picture(part), picture(whole), `cut ${cut}`);
      assert.equal(progress[progress.length - 2], size, "progress ends at the file's size");
      assert.ok(progress.every((v, k) => k % 2 === 1 || v >= lineStart), "progress counts from the file's start");
    }
  });

  it("reads the rest on two threads and gets the same index and context", async () => {
    const file = writeSession(chain(400));
    const whole = await Session.load(file, { secondThread: false });
    const part = await Session.load(file, { firstPart: Math.floor(statSync(file).size / 5) });
    assert.equal(part.threads, 1);
    await part.refresh({ secondThread: true });
    assert.equal(part.threads, 2, "the rest was not read on a second thread");
    assert.deepEqual(picture(part), picture(whole));
    const leaf = whole.tree.leaves()[0];
    assert.deepEqual(buildContext(part, part.metas[leaf].id), buildContext(whole, whole.metas[leaf].id));
  });

  it("stays as it was while the rest is read, so rows can be served meanwhile, then grows in one step", async () => {
    const file = writeSession(chain(4000));
    const size = statSync(file).size;
    assert.ok(size > 3 * 2 ** 20, `${size} bytes: the rest must take several chunks`);
    const part = await Session.load(file, { firstPart: 2 ** 20, secondThread: false });
    const count = part.metas.length;
    const lastId = part.metas[count - 1].id;
    const leaves = part.tree.leaves().length;
    let seen = 0;
    await part.refresh({
      secondThread: false,
      onProgress: () => {
        seen++;
        assert.equal(part.metas.length, count);
        assert.equal(part.table.count, count);
        assert.equal(part.tree.leaves().length, leaves);
        assert.equal(part.requireIndex(lastId), count - 1);
        assert.equal(part.complete, false);
      },
    });
    assert.ok(seen >= 3, `only ${seen} progress calls`);
    assert.ok(part.metas.length > count);
    assert.equal(part.complete, true);
  });

  it("refuses to append until the rest is read, and never writes the file", async () => {
    const file = writeSession(chain(30));
    const before = readFileSync(file);
    const part = await Session.load(file, { firstPart: 2000 });
    await assert.rejects(appendEntry(part, { type: "label", parentId: part.metas[0].id, targetId: part.metas[0].id, label: "x" } as Parameters<typeof appendEntry>[1]), /only \d+ of its \d+ bytes are read yet; wait for the load to finish/);
    assert.deepEqual(readFileSync(file), before);
    await part.refresh();
    assert.equal(part.complete, true);
    assert.doesNotThrow(() => part.checkUnchanged());
  });

  it("loads the whole file when the first part holds no whole line, or no header", async () => {
    const file = writeSession([header({ cwd: `/${"x".repeat(500)}` }), user("u1", null, "hello")]);
    const s = await Session.load(file, { firstPart: 100 });
    assert.equal(s.complete, true);
    assert.deepEqual(s.metas.map((m) => m.id), ["u1"]);
    const junkFirst = writeSession(["junk line", header(), user("u1", null, "hello")]);
    const j = await Session.load(junkFirst, { firstPart: 12 });
    assert.equal(j.complete, true);
    assert.deepEqual(j.metas.map((m) => m.id), ["u1"]);
  });
});
