import { strict as assert } from "node:assert";
import { Session } from "../../../src/core/formats/pi/pi-session";
import { appendEntry } from "../../../src/core/formats/pi/store/append";
import { TextSession } from "../../../src/core/formats/pi/text-session";
import { assistant, entry, header, type Raw, sessionText, user, writeSession } from "../../helpers/session-builder";

/** Everything a reader of the session sees, for comparing a text read with a file read. */
async function sameAsFile(lines: Array<Raw | string>, trailingNewline = true): Promise<TextSession> {
  const file = await Session.load(writeSession(lines, { trailingNewline }));
  const text = TextSession.fromText(sessionText(lines, { trailingNewline }), file.path);
  assert.deepEqual(text.metas, file.metas);
  assert.deepEqual(text.problems, file.problems);
  assert.equal(text.problemCount, file.problemCount);
  assert.equal(text.version, file.version);
  assert.deepEqual(text.header, file.header);
  assert.equal(text.endsWithNewline, file.endsWithNewline);
  assert.equal(text.complete, true);
  assert.equal(text.tree.defaultLeaf, file.tree.defaultLeaf);
  assert.deepEqual([...text.tree.labels], [...file.tree.labels]);
  text.metas.forEach((_, i) => assert.deepEqual(text.entryAt(i), file.entryAt(i), `entry ${i}`));
  return text;
}

describe("pi sessions read from text in memory (the file's index builder, no file)", () => {
  it("v3 with damaged lines, a label and a torn last line: the same index, problems and entries as the file", async () => {
    const s = await sameAsFile(
      [
        "{torn header",
        header(),
        user("00000001", null, "q"),
        "not json",
        "[1]",
        assistant("00000002", "00000001", "a"),
        entry("label", "00000003", "00000002", { targetId: "00000001", label: "start" }),
        { ...user("00000004", "00000003", "no id"), id: 7 },
        '{"type":"message","id":"0000',
      ],
      false,
    );
    assert.deepEqual(s.problems.map((p) => `${p.line}:${p.kind}`), ["1:parse-error", "4:parse-error", "5:not-an-object", "8:missing-id", "9:torn-line"]);
    assert.equal(s.endsWithNewline, false);
  });

  it("v1 (ids from line numbers, firstKeptEntryIndex) and v2 (hookMessage): migrated as the file is", async () => {
    const v1 = await sameAsFile([
      { type: "session", id: "v1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
      { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "one" } },
      "{damaged",
      { type: "message", timestamp: "2025-01-01T00:00:02.000Z", message: { role: "user", content: "two" } },
      { type: "compaction", timestamp: "2025-01-01T00:00:03.000Z", summary: "S", firstKeptEntryIndex: 2, tokensBefore: 5 },
    ]);
    assert.deepEqual(v1.metas.map((m) => m.id), ["00000002", "00000004", "00000005"]);
    assert.equal(v1.entry("00000005").firstKeptEntryId, "00000004");
    const v2 = await sameAsFile([
      header({ version: 2 }),
      { type: "message", id: "00000001", parentId: null, timestamp: "2026-01-01T00:00:00.000Z", message: { role: "hookMessage", customType: "h", content: "x", display: true, timestamp: 1 } },
    ]);
    assert.equal((v2.entry("00000001") as { message: { role: string } }).message.role, "custom");
  });

  it("text that is no pi session is refused with the file's messages", async () => {
    for (const lines of [["42", header()], ["", "  "], ["junk", "more junk"]]) {
      const file = writeSession(lines);
      const why = await Session.load(file).then(
        () => "loaded",
        (e: Error) => e.message,
      );
      assert.match(why, /not a pi session file/);
      assert.throws(() => TextSession.fromText(sessionText(lines), file), (e: Error) => e.message === why);
    }
    assert.throws(() => TextSession.fromText(""), /\(memory\)\/session\.jsonl: not a pi session file: the file is empty/);
  });

  it("writing to it or re-reading it fails clearly, naming where it would live", async () => {
    const s = TextSession.fromText(sessionText([header(), user("00000001", null, "q")]), "/sessions/demo.jsonl");
    assert.ok(s instanceof Session, "whatever takes a pi session takes it");
    await assert.rejects(appendEntry(s, { type: "label", parentId: "00000001", targetId: "00000001", label: "x" }), /\/sessions\/demo\.jsonl: read from text in memory, not a file; nothing can be written/);
    await assert.rejects(s.refresh(), /\/sessions\/demo\.jsonl: read from text in memory, not a file; there is nothing to re-read/);
  });
});
