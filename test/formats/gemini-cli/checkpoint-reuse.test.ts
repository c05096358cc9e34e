import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generateGeminiSession } from "../../../bench/generate-gemini";
import { geminiFormat } from "../../../src/core/formats/gemini-cli/format";
import { isSessionContext } from "../../../src/core/formats/gemini-cli/native-context";
import { replay } from "../../../src/core/formats/gemini-cli/replay";
import { GeminiSession } from "../../../src/core/formats/gemini-cli/session";
import { forEachFileLine, forEachLineOf } from "../../../src/core/util/chunked-lines";
import { record } from "../../helpers/index-picture";
import { tempDir } from "../../helpers/session-builder";
import { contextMsg, geminiMsg, lines, meta, parsing, type Rec, toolCall, userMsg } from "./helpers";

const FIXTURES = join(process.cwd(), "test", "fixtures", "gemini-cli");

function jsonlFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...jsonlFiles(p));
    else if (name.endsWith(".jsonl")) out.push(p);
  }
  return out;
}

/**
 * Everything a load shows of a session: the index, the tree, the problems and the context
 * at `leaves` (all when not given). The text replay parses every line whole: it is the
 * reference the byte replay (checkpoint messages taken from their earlier text) must equal.
 */
function picture(s: GeminiSession, leaves?: number[]) {
  return {
    records: s.metas.map(record),
    parents: Array.from({ length: s.metas.length }, (_, i) => s.tree.parent[i]),
    problems: s.problems,
    resumeLeaf: s.resumeLeaf,
    contexts: (leaves ?? s.metas.map((_, i) => i)).map((i) => geminiFormat.context(s, i)),
  };
}

function assertSameLoad(path: string, leaves?: (s: GeminiSession) => number[]): void {
  const reference = new GeminiSession(path, replay(readFileSync(path, "utf8"), path));
  const loaded = GeminiSession.open(path);
  assert.deepEqual(loaded.replayed, reference.replayed, `${path}: the replay differs`);
  assert.deepEqual(picture(loaded, leaves?.(loaded)), picture(reference, leaves?.(reference)), `${path}: the load differs`);
}

/** Replays `text` as bytes and as text; they must agree, whatever the lines hold. */
function assertSameReplay(text: string): ReturnType<typeof replay> {
  const fromBytes = replay(Buffer.from(text, "utf8"), "x.jsonl");
  assert.deepEqual(fromBytes, replay(text, "x.jsonl"));
  return fromBytes;
}

describe("Gemini CLI checkpoints: messages read before are not parsed again, and the load is the same", () => {
  it("every recorded fixture loads as a whole-line parse reads it: index, tree, problems, every context", () => {
    const files = jsonlFiles(FIXTURES);
    assert.ok(files.length >= 10, `only ${files.length} recorded files in ${FIXTURES}`);
    for (const f of files) assertSameLoad(f);
  });

  describe("a generated session with many checkpoints (resumes, compressions, rewinds)", () => {
    let path = "";
    before(() => {
      path = join(tempDir(), "session-2026-11-01T09-00-9e000001.jsonl");
      const g = generateGeminiSession({ fixtures: FIXTURES, targetBytes: 3 * 2 ** 20, out: path, seed: 7, resumeEvery: 5, compressEvery: 23, rewindEvery: 9 });
      assert.ok(g.checkpoints >= 20 && g.compressions >= 2 && g.rewinds >= 5, JSON.stringify(g));
    });

    it("loads the same: index, tree, problems, and the context of the resume leaf and of every 50th message", () => {
      assertSameLoad(path, (s) => [s.resumeLeaf, ...s.metas.map((_, i) => i).filter((i) => i % 50 === 0)]);
    });

    it("parses less than half of the file: the checkpoints' messages come from their earlier text", () => {
      const bytes = readFileSync(path);
      // A copy never opened: GeminiSession.open reads all of it (an open of a file read before goes on from there).
      const copy = join(tempDir(), "session-2026-11-01T09-00-9e000002.jsonl");
      writeFileSync(copy, bytes);
      for (const read of [(): unknown => replay(bytes, path), (): unknown => GeminiSession.open(copy)]) {
        const n = parsing(read).bytes;
        assert.ok(n < bytes.length / 2, `JSON.parse was given ${n} of ${bytes.length} bytes`);
      }
    });
  });

  it("a message changed since it was read, or written in another form, is parsed from the checkpoint", () => {
    const u1 = userMsg("u1", "one ✦ ünï");
    const g1 = geminiMsg("g1", "", { toolCalls: [toolCall("read_file", 0, { file_path: "a.txt" }, "text \"quoted\" \\ back")] });
    const r = assertSameReplay(
      lines([
        meta("/p"),
        { $set: { messages: [contextMsg()] } },
        u1,
        g1,
        // g1 again with a different text, u1 as it was: the first is parsed, the second reused.
        { $set: { messages: [contextMsg(), u1, { ...g1, content: "now with text" }] } },
        // The same messages with their keys in another order: parsed, not reused.
        { $set: { messages: [contextMsg(), { type: "user", ...u1 }, { ...g1, content: "now with text" }] } },
      ]),
    );
    assert.equal(r.nodes.find((n) => n.key === "g1")?.message.content, "now with text");
    assert.equal(r.nodes.find((n) => n.key === "u1")?.line, 6);
  });

  it("reused messages are fresh objects, as a parse gives: a checkpoint still counts as the line that last wrote them", () => {
    const u1 = userMsg("u1", "one");
    const text = lines([meta("/p"), u1, { $set: { messages: [u1] } }]);
    const r = assertSameReplay(text);
    assert.equal(r.nodes[0].line, 3);
  });

  it("checkpoint lines not of the shape Gemini writes are read as a whole-line parse reads them", () => {
    const u1 = userMsg("u1", "one");
    const g1 = geminiMsg("g1", "reply");
    const s = (o: Rec) => JSON.stringify(o);
    const variants = [
      // Spaces, CRLF, an escaped id, a message with no id, a non-object in the list.
      `{"$set":{"messages":[ ${s(u1)} , ${s(g1)} ]}}`,
      `{"$set":{"messages":[${s(u1)},${s(g1)}]}}\r`,
      `{"$set":{"messages":[${s(u1).replace('"u1"', '"u\\u0031"')},${s(g1)}]}}`,
      `{"$set":{"messages":[${s(u1)},{"text":"no id"},${s(g1)}]}}`,
      `{"$set":{"messages":[${s(u1)},3,${s(g1)}]}}`,
      `{"$set":{"messages":[]}}`,
      // A second messages key, plain or escaped, wins over the first; a second $set too.
      `{"$set":{"messages":[${s(u1)},${s(g1)}],"messages":[${s(u1)}]}}`,
      `{"$set":{"messages":[${s(u1)},${s(g1)}],"m\\u0065ssages":[]}}`,
      `{"$set":{"messages":[${s(u1)},${s(g1)}]},"$set":{"summary":"x"}}`,
      `{"$set":{"messages":[${s(u1)},${s(g1)}],"lastUpdated":"2026-11-26T06:00:09.000Z","summary":"✦"}}`,
      // Torn, or with junk after it: not JSON, reported as before.
      `{"$set":{"messages":[${s(u1)},${s(g1)}`,
      `{"$set":{"messages":[${s(u1)},${s(g1)}]}}}`,
      `{"$set":{"messages":[${s(u1)},${s(g1).slice(0, -1)}]}}`,
      `{"$set":{"messages":[${s(u1)}${s(g1)}]}}`,
      // A brace inside a string, and a string that ends in an escaped backslash.
      `{"$set":{"messages":[${s(userMsg("u2", 'a } b ] "{ c\\'))},${s(g1)}]}}`,
    ];
    for (const v of variants) {
      for (const before of [[], [u1, g1]]) {
        const text = lines([meta("/p"), ...before, v, userMsg("u3", "after")]);
        assert.doesNotThrow(() => assertSameReplay(text), v);
      }
    }
  });

  it("a file whose checkpoint repeats a message line with trailing spaces reads the same", () => {
    const u1 = userMsg("u1", "one");
    const path = join(tempDir(), "session-2026-11-26T06-00-0a1b2c3d.jsonl");
    writeFileSync(path, `${lines([meta("/p")])}${JSON.stringify(u1)}  \n${lines([{ $set: { messages: [u1, geminiMsg("g1", "x")] } }])}`);
    assertSameLoad(path);
  });
});

describe("a file's lines read in chunks (the Gemini CLI load reads its file so)", () => {
  it("gives every line as the whole file cut at its newlines does, whatever the chunk size: long lines, multi-byte characters, CR, no final newline", () => {
    const dir = tempDir();
    const texts = [
      `a\nbb\r\n${"é✦".repeat(40)}\n\n${"x".repeat(300)}\nlast`,
      `${"日本".repeat(100)}\n`,
      "",
      "\n\n",
      "one line, no newline",
    ];
    texts.forEach((text, k) => {
      const path = join(dir, `f${k}.jsonl`);
      writeFileSync(path, text);
      const whole: string[] = [];
      forEachLineOf(Buffer.from(text, "utf8"), (b, s, e, line) => whole.push(`${line}:${b.toString("utf8", s, e)}`));
      for (const chunk of [1, 2, 3, 7, 64, 1 << 20]) {
        const got: string[] = [];
        const { end: size } = forEachFileLine(path, undefined, (b, s, e, line) => got.push(`${line}:${b.toString("utf8", s, e)}`), { chunkBytes: chunk });
        assert.deepEqual(got, whole, `file ${k}, chunks of ${chunk}`);
        assert.equal(size, Buffer.byteLength(text));
      }
    });
  });
});

describe("the stored session context, found from the start of a message's text only", () => {
  it("is a user message whose verbose text starts with the tag past white space, however its parts cut it", () => {
    const user = (content: unknown) => ({ id: "c", type: "user", content });
    const yes = [
      "<session_context>x",
      " \n<session_context>",
      [{ text: "  " }, { text: "\n<session_" }, { text: "context> more" }],
      [{ bad: 1 }, "not a part", { text: "<session_context>" }, { functionCall: { name: "f" } }],
      { text: "\t<session_context>" },
    ];
    const no = [
      "",
      " <session_contex",
      [{ text: " " }, { functionCall: { name: "f" } }, { text: "<session_context>" }],
      [{ text: "<session_", thought: true }, { text: "context>" }],
      [{ inlineData: {} }, { text: "<session_context>" }],
      7,
    ];
    for (const c of yes) assert.equal(isSessionContext(user(c)), true, JSON.stringify(c));
    for (const c of no) assert.equal(isSessionContext(user(c)), false, JSON.stringify(c));
    assert.equal(isSessionContext({ id: "c", type: "gemini", content: "<session_context>" }), false);
  });
});
