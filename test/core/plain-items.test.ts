import { strict as assert } from "node:assert";
import { LineCutter } from "../../src/core/store/cut-parse";
import { LineWalker } from "../../src/core/store/json-walk";
import { plainItems } from "../../src/core/store/plain-items";
import { mutated, rng } from "../helpers/json-mutations";

const CUT_KEYS = ["thinking", "text", "oldText", "newText", "content"];
const CUT_BYTES = 16;
const walker = new LineWalker({ top: ["id", "parentId", "timestamp"], outer: "message", inner: [], list: "content", itemKey: "type", cutKeys: CUT_KEYS, cutBytes: CUT_BYTES, limit: 64 });
const cutter = new LineCutter(CUT_KEYS, CUT_BYTES);

/** A pi assistant's line with these content blocks. */
function line(...blocks: string[]): string {
  return `{"type":"message","id":"a1b2c3d4","parentId":"0badcafe","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[${blocks.join(",")}],"usage":{"input":1,"cost":{"total":0.5}},"stopReason":"toolUse"}}`;
}

const EDIT = '{"type":"toolCall","id":"call_1","name":"edit","arguments":{"path":"src/a.ts","oldText":"the old text, long enough to cut","newText":"new"}}';
const LINES = [
  line('{"type":"thinking","thinking":"a thought long enough to be cut out"}', EDIT),
  line(EDIT, '{"type":"toolCall","id":"call_2","name":"write","arguments":{"path":"/abs/b.md","content":"# A file written whole, cut out of the line"}}'),
  line('{"type":"toolCall","id":"call_3","name":"read","arguments":{"path":"c.ts","offset":120,"limit":-40}}', '{"type":"text","text":"short"}'),
  line('{"type":"toolCall","id":"c4","name":"multi","arguments":{"edits":[{"oldText":"a","newText":"b"},{"path":null,"ok":true,"no":false,"n":0}],"empty":{},"none":[]}}'),
  line('{"type":"toolCall","name":"edit","arguments":{"path":"a","path":"b"},"id":"dup"}'),
  line("7", '"a string item"', "[1,[2,[3]]]", "null"),
];

/** JSON.parse's answer for the items, as the history's read gets it (LineCutter.parseItems). */
function parsedItems(buf: Buffer, items: number[], cuts: number[]): unknown[] | undefined {
  return cutter.parseItems(buf, 0, buf.length, buf.toString("latin1"), items, cuts);
}

/** Walks the line; when its items are read here, checks they are JSON.parse's, key order and all. Whether they were. */
function agrees(s: string): boolean | undefined {
  const buf = Buffer.from(s);
  if (!walker.walk(buf, 0, buf.length)) return undefined;
  const { items, cuts } = walker.walked;
  const plain = plainItems(buf, items, cuts);
  if (!plain) return false;
  const want = parsedItems(buf, items, cuts);
  assert.deepStrictEqual(plain, want, s);
  assert.equal(JSON.stringify(plain), JSON.stringify(want), `${s}: the members' order`);
  return true;
}

describe("a walked line's items read from their bytes where they are plain (plainItems)", () => {
  it("gives what JSON.parse gives of pi's tool calls: cut texts as their marks, integers, literals, nesting, a repeated key's last value", () => {
    for (const s of LINES) assert.equal(agrees(s), true, s);
    const buf = Buffer.from(LINES[0]);
    walker.walk(buf, 0, buf.length);
    const [thought, edit] = plainItems(buf, walker.walked.items, walker.walked.cuts) as Array<Record<string, unknown>>;
    assert.deepEqual(thought, { type: "thinking", thinking: "\u00000" });
    assert.deepEqual(edit.arguments, { path: "src/a.ts", oldText: "\u00001", newText: "new" });
  });

  it("reads a string with escapes or bytes past ASCII as JSON.parse does (alone), and leaves to JSON.parse \\u escapes, fractions, exponents, -0, long integers, spaces, deep nesting, __proto__", () => {
    const args = (a: string) => line(`{"type":"toolCall","name":"read","arguments":${a}}`);
    const read = [args('{"path":"a\\"b\\\\c\\/d\\n\\t.ts"}'), args('{"path":"é.ts","command":"grep \\"ü\\" x"}')];
    for (const s of read) assert.equal(agrees(s), true, s);
    // Bytes that are not UTF-8 (each decodes to U+FFFD, alone as in the line).
    const [before, after] = args('{"path":"@.ts"}').split("@");
    const bad = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xc3, 0x41]), Buffer.from(after)]);
    assert.ok(walker.walk(bad, 0, bad.length));
    const got = plainItems(bad, walker.walked.items, walker.walked.cuts) as Array<{ arguments: { path: string } }>;
    assert.deepStrictEqual(got, parsedItems(bad, walker.walked.items, walker.walked.cuts));
    assert.equal(got[0].arguments.path, "\ufffd\ufffdA.ts");
    const others = [
      args('{"path":"\\u0041.ts"}'),
      args('{"path":"\\u00000"}'),
      args('{"offset":1.5}'),
      args('{"offset":1e3}'),
      args('{"offset":-0}'),
      args('{"offset":1234567890123456}'),
      args('{"path": "a.ts"}'),
      args('{"a":{"b":{"c":{"d":{"e":{"f":1}}}}}}'),
      args('{"__proto__":{"path":"x"}}'),
      args('{"\\u0070ath":"x"}'),
    ];
    for (const s of others) {
      assert.equal(agrees(s), false, s);
      // JSON.parse reads each: the history still gets its answer.
      const buf = Buffer.from(s);
      assert.ok(walker.walk(buf, 0, buf.length), s);
      assert.ok(parsedItems(buf, walker.walked.items, walker.walked.cuts), s);
    }
    assert.equal(agrees(args('{"offset":123456789012345}')), true, "fifteen digits are read");
  });

  it("agrees with JSON.parse on thousands of mutations of the lines, reading most of those it takes", () => {
    const next = rng(11);
    const noise = ["{", "}", "[", "]", ",", ":", '"', "\\", " ", "0", "1", "-", ".", "e", "t", "n", "é", "__proto__"];
    let read = 0;
    let left = 0;
    for (const s of LINES) {
      for (let k = 0; k < 3000; k++) {
        const got = agrees(mutated(s, noise, next));
        if (got === true) read++;
        else if (got === false) left++;
      }
    }
    assert.ok(read > 2000 && left > 100, `read ${read}, left to JSON.parse ${left}`);
  });
});
