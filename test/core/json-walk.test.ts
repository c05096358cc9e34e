import { strict as assert } from "node:assert";
import { isValidJson } from "../../src/core/store/json-valid";
import { LineWalker, valueAt } from "../../src/core/store/json-walk";
import { mutated, rng } from "../helpers/json-mutations";

const PLAN = { top: ["type", "id", "timestamp"], outer: "message", inner: ["role"], list: "content", itemKey: "type", cutKeys: ["text", "oldText"], cutBytes: 8, limit: 512 };

const LINES = [
  '{"type":"message","id":"a1","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"a long text \\n here"},{"type":"toolCall","name":"edit","arguments":{"path":"x.ts","oldText":"old \\"quoted\\" text","newText":"new"}}],"usage":{"input":1,"cost":{"total":0.5}}}}',
  ' { "type" : "message" , "message" : { "content" : [ 1 , "two" , { "text" : "short" } , [ ] , { "type" : 1 , "a" : { "type" : "inner" } , "type" : "last" } ] , "role" : null } , "id" : 7 } ',
  '{"message":{"content":"not a list","role":"user"},"type":"message"}',
  '{"type":"message","message":{"role":"assistant","content":[]},"extra":[{"text":"outside the items: never cut"}]}',
  '{"type":"x","id":"é\\u00e9","message":{"content":[{"deep":{"deeper":[{"oldText":"cut at any depth inside an item"}]}}]}}',
];
const NOISE = ["{", "}", "[", "]", ",", ":", '"', "\\", " ", "0", "1", "-", "e", "t", "n", "u", "é"];

/** What JSON.parse gives of the text, or undefined when it refuses it. */
function parsed(s: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(s) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Checks every place the walk noted against JSON.parse's value of the same line. */
function agrees(walker: LineWalker, line: string): void {
  const buf = Buffer.from(line);
  const ok = walker.walk(buf, 0, buf.length);
  // The walk takes exactly what isValidJson with ownKeysOnce takes of an object line.
  const want = isValidJson(buf, 0, buf.length, 512, { ownKeysOnce: true }) && parsed(line) !== undefined;
  assert.equal(ok, want, line);
  if (!ok) return;
  const value = parsed(line) as Record<string, unknown>;
  const w = walker.walked;
  PLAN.top.forEach((name, k) => {
    const [from, to] = [w.top[2 * k], w.top[2 * k + 1]];
    if (!(name in value)) return assert.equal(from, -1, `${line}: ${name}`);
    assert.deepEqual(valueAt(buf, from, to), value[name], `${line}: ${name}`);
  });
  const outer = value[PLAN.outer] as Record<string, unknown> | undefined;
  const isObject = !!outer && typeof outer === "object" && !Array.isArray(outer);
  if (isObject && "role" in outer) assert.deepEqual(valueAt(buf, w.inner[0], w.inner[1]), outer.role, line);
  else assert.equal(w.inner[0], -1, line);
  const list = isObject ? outer[PLAN.list] : undefined;
  const items: unknown[] = [];
  for (let k = 0; k < w.items.length; k += 2) items.push(JSON.parse(buf.toString("utf8", w.items[k], w.items[k + 1])));
  assert.deepEqual(items, Array.isArray(list) ? list : [], line);
  // Each item's type member, the last of its name (JSON.parse keeps the last), or none.
  items.forEach((item, j) => {
    const [from, to] = [w.itemKeys[2 * j], w.itemKeys[2 * j + 1]];
    const isItemObject = !!item && typeof item === "object" && !Array.isArray(item);
    if (!isItemObject || !("type" in item)) return assert.equal(from, -1, `${line}: item ${j}`);
    assert.deepEqual(valueAt(buf, from, to), (item as { type: unknown }).type, `${line}: item ${j}`);
  });
  // Each cut is a string literal of a cut key, long enough, inside an item.
  for (let k = 0; k < w.cuts.length; k += 2) {
    const [from, to] = [w.cuts[k], w.cuts[k + 1]];
    assert.ok(to - from >= PLAN.cutBytes && w.items.some((_, j) => j % 2 === 0 && w.items[j] <= from && to <= w.items[j + 1]), line);
    assert.equal(typeof JSON.parse(buf.toString("utf8", from, to)), "string", line);
    assert.match(buf.toString("utf8", 0, from), /"(text|oldText)"\s*:\s*$/, line);
  }
}

describe("a JSON line walked for the places of some of its values (LineWalker)", () => {
  it("notes the members, the items and the long strings of the cut keys where JSON.parse has them", () => {
    const walker = new LineWalker(PLAN);
    for (const line of LINES) agrees(walker, line);
    const buf = Buffer.from(LINES[0]);
    assert.equal(walker.walk(buf, 0, buf.length), true);
    const cut = walker.walked.cuts;
    assert.deepEqual(
      [0, 2].map((k) => JSON.parse(buf.toString("utf8", cut[k], cut[k + 1]))),
      ["a long text \n here", 'old "quoted" text'],
    );
    assert.equal(walker.walked.items.length, 4, "two items");
  });

  it("agrees with JSON.parse and isValidJson on thousands of mutations of its lines", () => {
    const walker = new LineWalker(PLAN);
    const next = rng(7);
    let refused = 0;
    let taken = 0;
    for (const line of LINES) {
      for (let k = 0; k < 3000; k++) {
        const s = mutated(line, NOISE, next);
        agrees(walker, s);
        if (walker.walk(Buffer.from(s), 0, Buffer.byteLength(s))) taken++;
        else refused++;
      }
    }
    assert.ok(refused > 1000 && taken > 1000, `refused ${refused}, taken ${taken}`);
  });

  it("refuses a repeated or escaped key of the line or of its members' objects (JSON.parse keeps the last), a line that is not an object, and one nested too deep", () => {
    const walker = new LineWalker({ ...PLAN, limit: 4 });
    const walks = (s: string) => walker.walk(Buffer.from(s), 0, Buffer.byteLength(s));
    assert.equal(walks('{"type":"a","type":"b"}'), false);
    assert.equal(walks('{"message":{"role":"a","role":"b"}}'), false);
    assert.equal(walks('{"message":{"content":[1],"content":[2]}}'), false);
    assert.equal(walks('{"\\u0074ype":"a"}'), false);
    assert.equal(walks('{"message":{"content":[{"text":"1","text":"2"}]}}'), true, "an item's keys are JSON.parse's to read");
    assert.equal(walks('["type"]'), false);
    assert.equal(walks('{"a":[[[]]]}'), true);
    assert.equal(walks('{"a":[[[[]]]]}'), false);
    const buf = Buffer.from(`xx${LINES[0]}yy`);
    const deep = new LineWalker(PLAN);
    assert.equal(deep.walk(buf, 2, buf.length - 2), true, "its range of a larger buffer");
    assert.equal(deep.walk(buf, 2, buf.length - 1), false);
    assert.equal(walker.walk(buf, 2, buf.length - 2), false, "five levels deep (the arguments' object), over the limit of four");
  });

  it("reads a plain string as it is and any other value as JSON.parse does", () => {
    const b = Buffer.from('"abc" "é\\n" null 12 {"a":[1]}');
    assert.equal(valueAt(b, 0, 5), "abc");
    assert.equal(valueAt(b, 6, 12), "é\n");
    assert.equal(valueAt(b, 13, 17), null);
    assert.equal(valueAt(b, 18, 20), 12);
    assert.deepEqual(valueAt(b, 21, b.length), { a: [1] });
  });
});
