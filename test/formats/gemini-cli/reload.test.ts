import { strict as assert } from "node:assert";
import { appendFileSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateGeminiSession } from "../../../bench/generate-gemini";
import { geminiFormat } from "../../../src/core/formats/gemini-cli/format";
import { replay } from "../../../src/core/formats/gemini-cli/replay";
import { GeminiSession } from "../../../src/core/formats/gemini-cli/session";
import { record } from "../../helpers/index-picture";
import { tempDir } from "../../helpers/session-builder";
import { contextMsg, geminiMsg, lines, meta, parsing, SESSION_ID, toolCall, userMsg } from "./helpers";

const FIXTURES = join(process.cwd(), "test", "fixtures", "gemini-cli");

/** Everything a load shows: index, tree, problems, the resume leaf and its context. */
function picture(s: GeminiSession) {
  return {
    replayed: s.replayed,
    records: s.metas.map(record),
    parents: Array.from({ length: s.metas.length }, (_, i) => s.tree.parent[i]),
    problems: s.problems,
    resumeLeaf: s.resumeLeaf,
    context: geminiFormat.context(s, s.resumeLeaf),
    size: s.size,
  };
}

/** The file as a fresh read of all of it shows it (every line parsed whole). */
function reference(path: string) {
  return picture(new GeminiSession(path, replay(readFileSync(path, "utf8"), path), { size: statSync(path).size, mtimeMs: 0 }));
}

/** What Gemini CLI appends over a few turns: messages, updates, a resume's checkpoint, a rewind, a junk line. */
function moreTurns(n: number): string {
  const u = `more-u${n}`;
  const g = `more-g${n}`;
  return lines([
    userMsg(u, `prompt ${n} ✦`),
    { $set: { lastUpdated: `2026-11-26T07:00:0${n}.000Z` } },
    geminiMsg(g, ""),
    geminiMsg(g, "", { toolCalls: [toolCall("read_file", n, { file_path: "a.txt" }, `text ${n}`)] }),
    "{torn junk",
    { $rewindTo: g },
    geminiMsg(g, `again ${n}`),
    { $set: { summary: `turn ${n}` } },
  ]);
}

describe("Gemini CLI: a live session read again after Gemini appended to it", () => {
  it("replays only the appended lines, and shows what a read of the whole file shows; the session read before is left as it was", () => {
    const path = join(tempDir(), "session-2026-11-01T09-00-9e000001.jsonl");
    generateGeminiSession({ fixtures: FIXTURES, targetBytes: 2 ** 20, out: path, seed: 3, sessionId: SESSION_ID });
    const first = GeminiSession.open(path);
    const firstBefore = structuredClone(picture(first));
    for (let n = 1; n <= 3; n++) {
      const more = moreTurns(n);
      appendFileSync(path, more);
      const { bytes, got } = parsing(() => GeminiSession.open(path));
      assert.ok(bytes < 2 * Buffer.byteLength(more), `a reload after ${Buffer.byteLength(more)} bytes were appended parsed ${bytes} bytes (the file has ${statSync(path).size})`);
      assert.deepEqual(picture(got), reference(path));
    }
    // A checkpoint of the first read's list: it rewrites nodes that read made (their line, their message).
    const list = first.replayed.current.map((k) => first.replayed.nodes.find((n) => n.key === k)?.message);
    appendFileSync(path, lines([{ $set: { messages: list } }]));
    assert.deepEqual(picture(GeminiSession.open(path)), reference(path));
    assert.deepEqual(picture(first), firstBefore, "the session read first is unchanged");
  });

  it("a resume's checkpoint appended (the whole history again) replays as a whole read does", () => {
    const path = join(tempDir(), "session-2026-11-26T06-00-0a1b2c3d.jsonl");
    const u1 = userMsg("u1", "one");
    const g1 = geminiMsg("g1", "reply");
    writeFileSync(path, lines([meta("/p"), { $set: { messages: [contextMsg()] } }, u1, g1]));
    GeminiSession.open(path);
    appendFileSync(path, lines([meta("/p", { lastUpdated: "2026-11-26T06:10:00.000Z" }), { $set: { messages: [contextMsg(), u1, g1] } }, userMsg("u2", "two")]));
    assert.deepEqual(picture(GeminiSession.open(path)), reference(path));
    // Compressed: a new list that starts a branch.
    appendFileSync(path, lines([{ $set: { messages: [contextMsg(), userMsg("s1", "<state_snapshot>x</state_snapshot>"), userMsg("u2", "two")] } }]));
    assert.deepEqual(picture(GeminiSession.open(path)), reference(path));
  });

  it("a file rewritten in place, shrunk, or read while its last line had no newline is read whole again", () => {
    const path = join(tempDir(), "session-2026-11-26T06-00-0a1b2c3d.jsonl");
    writeFileSync(path, lines([meta("/p"), userMsg("u1", "one"), geminiMsg("g1", "reply")]));
    GeminiSession.open(path);
    // The same inode, other bytes, longer: not an append.
    writeFileSync(path, lines([meta("/p"), userMsg("x1", "other"), geminiMsg("x2", "other reply"), userMsg("x3", "more")]));
    assert.deepEqual(picture(GeminiSession.open(path)), reference(path));
    writeFileSync(path, lines([meta("/p"), userMsg("x1", "short")]));
    assert.deepEqual(picture(GeminiSession.open(path)), reference(path));
    // A line being written: its end arrives later.
    const line = JSON.stringify(userMsg("y1", "half written"));
    appendFileSync(path, line.slice(0, 20));
    assert.deepEqual(picture(GeminiSession.open(path)), reference(path));
    appendFileSync(path, `${line.slice(20)}\n${lines([geminiMsg("y2", "after")])}`);
    assert.deepEqual(picture(GeminiSession.open(path)), reference(path));
  });
});
