import { strict as assert } from "node:assert";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { piIndexHooks } from "../../../src/core/formats/pi/index-hooks";
import { IndexBuilder } from "../../../src/core/store/index-builder";
import { assistant, header, user } from "../../helpers/session-builder";
import { agreesForEveryLeaf, piSession, texts } from "./memory";

describe("pi's lines: versions, damaged lines, the header rule (sessions in memory)", () => {
  it("v1: ids from line numbers, parents in file order, firstKeptEntryIndex resolved", () => {
    const lines = [
      { type: "session", id: "v1-session", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
      { type: "message", timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "one" } },
      { type: "message", timestamp: "2025-01-01T00:00:02.000Z", message: { role: "assistant", content: [{ type: "text", text: "two" }], provider: "anthropic", model: "m" } },
      "{this line is damaged",
      { type: "message", timestamp: "2025-01-01T00:00:03.000Z", message: { role: "user", content: "three" } },
      { type: "compaction", timestamp: "2025-01-01T00:00:04.000Z", summary: "S", firstKeptEntryIndex: 3, tokensBefore: 5 },
      { type: "message", timestamp: "2025-01-01T00:00:05.000Z", message: { role: "user", content: "after" } },
    ];
    const s = piSession(lines);
    assert.equal(s.version, 1);
    assert.deepEqual(s.metas.map((m) => m.id), ["00000002", "00000003", "00000005", "00000006", "00000007"]);
    assert.deepEqual(s.metas.map((m) => m.parentId), [null, "00000002", "00000003", "00000005", "00000006"]);
    // Index 3 counts parsed entries (header = 0), as pi does: the damaged line is not one.
    assert.equal(s.metas[3].firstKeptEntryId, "00000005");
    assert.deepEqual(texts(buildContext(s)).slice(1), ["three", "after"]);
    assert.equal(s.problems.length, 1);
    assert.match(s.problems[0].message, /^line 4: not valid JSON/);
    agreesForEveryLeaf(lines);
  });

  it("damaged lines are skipped and reported; a torn last line is reported as torn", () => {
    const s = piSession(
      [header(), user("00000001", null, "q"), "not json at all", "[1,2]", assistant("00000002", "00000001", "a"), '{"type":"message","id":"0000'],
      { trailingNewline: false },
    );
    assert.deepEqual(s.metas.map((m) => m.id), ["00000001", "00000002"]);
    const kinds = s.problems.map((p) => `${p.line}:${p.kind}`);
    assert.deepEqual(kinds, ["3:parse-error", "4:not-an-object", "6:torn-line"]);
    assert.match(s.problems[2].message, /torn last line/);
    assert.deepEqual(texts(buildContext(s)), ["q", "a"]);
  });

  it("a line past V8's string limit is reported with its size and skipped, not thrown", () => {
    // A real one needs a 512 MB line; the builder only sees the decoder fail, so fake that.
    const b = new IndexBuilder("/x.jsonl", piIndexHooks);
    const line = (text: string, lineNo: number) => {
      const buf = Buffer.from(text);
      return { buf, start: 0, end: buf.length, offset: 0, lineNo, terminated: true };
    };
    b.accept(line(JSON.stringify(header()), 1));
    const huge = line("{", 2);
    huge.buf.toString = () => {
      throw Object.assign(new Error("Cannot create a string longer than 0x1fffffe8 characters"), { code: "ERR_STRING_TOO_LONG" });
    };
    b.accept(huge);
    b.accept(line(JSON.stringify(user("00000001", null, "q")), 3));
    assert.deepEqual(b.problems.map((p) => p.message), ["line 2: too long to read (0 MB; a JavaScript string holds at most 512 MB), skipped"]);
    assert.deepEqual(b.metas.map((m) => m.id), ["00000001"]);
  });

  it("before the header: bad lines are skipped, the first line that parses must be the header, a log file is refused early", () => {
    const tolerated = piSession(["{torn header", "", header(), user("00000001", null, "q")]);
    assert.deepEqual(tolerated.metas.map((m) => m.id), ["00000001"]);
    assert.deepEqual(tolerated.problems.map((p) => `${p.line}:${p.kind}`), ["1:parse-error"]);

    assert.throws(() => piSession(["42", header(), user("00000001", null, "q")]), /not a pi session file: first line is not a session header \(line 1 is a number; expected/);

    const lines = Array.from({ length: 30_000 }, (_, k) => `2026-01-01 12:00:00 INFO event ${k}`);
    assert.throws(() => piSession([...lines, header()]), (err: Error) => {
      assert.match(err.message, /not a pi session file: first line is not a session header \(no JSON line in the first 10000 lines; expected \{"type":"session",\.\.\.\}\)$/);
      assert.doesNotMatch(err.message, /INFO|event/, "nothing of the file is quoted");
      return true;
    });
  });
});
