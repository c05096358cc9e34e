import { strict as assert } from "node:assert";
import { holdsFileCallMarker } from "../../src/core/formats/pi/file-call-markers";
import { stringScan } from "../../src/core/store/json-string-scan";
import { mutated, rng } from "../helpers/json-mutations";

/** Both answers for buf[start, end): the SIMD search's and the regular expression's. */
function both(buf: Buffer, start: number, end: number): [boolean, boolean] {
  return [holdsFileCallMarker(buf, start, end), holdsFileCallMarker(buf, start, end, false)];
}

const MARKERS = ['"read"', '"write"', '"edit"', "\\u"];
/** Near misses: the pairs a marker begins with, and markers cut short or spelled otherwise. */
const NEAR = ['"r', '"w', '"e', "\\", '"rea', '"writ', '"edi', '"Read"', '"reads"', "read\"", '\\"u', '"edit\\"', "u"];

describe("file call markers (pi's skim rule)", () => {
  it("runs on WebAssembly SIMD here (else the tests below compare the regular expression with itself)", () => {
    // Node 20+ on x86-64 and arm64 has it; the product falls back to the regular expression elsewhere.
    assert.ok(stringScan(), "WebAssembly SIMD is not available on this Node");
  });

  it("finds each marker at every place in lines of every length up to 80 bytes, and no near miss", () => {
    let found = 0;
    for (const m of [...MARKERS, ...NEAR]) {
      for (let len = m.length; len <= 80; len++) {
        for (let at = 0; at + m.length <= len; at++) {
          const line = "x".repeat(at) + m + "y".repeat(len - at - m.length);
          const buf = Buffer.from(line, "latin1");
          const [simd, regex] = both(buf, 0, buf.length);
          assert.equal(simd, regex, `${JSON.stringify(line)}`);
          assert.equal(simd, MARKERS.includes(m), `${JSON.stringify(line)}`);
          if (simd) found++;
        }
      }
    }
    assert.ok(found > 4 * 70, `found ${found}`);
  });

  it("looks only inside the line: a marker the bytes around it complete is not there", () => {
    // The line ends inside a marker whose rest follows in the buffer, or begins after its start.
    for (const m of MARKERS) {
      for (let cut = 1; cut < m.length; cut++) {
        for (let pad = 0; pad < 20; pad++) {
          const text = `${"a".repeat(pad)}${m}${"b".repeat(20)}`;
          const buf = Buffer.from(text, "latin1");
          const end = pad + cut;
          assert.deepEqual(both(buf, 0, end), [false, false], `${JSON.stringify(text.slice(0, end))}`);
          assert.deepEqual(both(buf, pad + cut, buf.length), [false, false], `${JSON.stringify(text.slice(pad + cut))}`);
          assert.deepEqual(both(buf, pad, pad + m.length), [true, true]);
        }
      }
    }
  });

  it("gives the regular expression's answer on mutated assistant lines of pi's", () => {
    const next = rng(7);
    const base = [
      '{"type":"message","id":"a1b2c3d4","parentId":"00000001","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"I will look."},{"type":"toolCall","id":"call_1","name":"bash","arguments":{"command":"ls -la"}}]}}',
      '{"type":"message","id":"a1b2c3d5","parentId":"a1b2c3d4","timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"call_2","name":"edit","arguments":{"path":"src/a.ts","oldText":"const a = 1;","newText":"const a = 2;"}}]}}',
      '{"type":"message","id":"a1b2c3d6","parentId":"a1b2c3d5","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"thinking","thinking":"the error \\"rpc\\" comes from the reader"}]}}',
    ];
    const noise = ['"', "\\", "u", "r", "e", "w", '"read"', '"edit"', "\\u0065", "é", "\n"];
    let yes = 0;
    let no = 0;
    for (let k = 0; k < 3000; k++) {
      const text = mutated(base[k % base.length], noise, next);
      // The line among other bytes, as a chunk of a file holds it.
      const before = Buffer.from('"read" \\u', "latin1");
      const line = Buffer.from(text, "utf8");
      const buf = Buffer.concat([before, line, Buffer.from('edit" \\u', "latin1")]);
      const [simd, regex] = both(buf, before.length, before.length + line.length);
      assert.equal(simd, regex, text);
      if (simd) yes++;
      else no++;
    }
    assert.ok(yes > 100 && no > 100, `${yes} with, ${no} without`);
  });

  it("reads a line far longer than its memory, then short lines again", () => {
    const long = Buffer.from(`${"z".repeat(5 * 2 ** 20)}"edit"`, "latin1");
    assert.deepEqual(both(long, 0, long.length), [true, true]);
    assert.deepEqual(both(long, 0, long.length - 1), [false, false]);
    const short = Buffer.from('{"name":"write"}', "latin1");
    assert.deepEqual(both(short, 0, short.length), [true, true]);
    assert.deepEqual(both(short, 0, 0), [false, false]);
  });

  it("steps over many candidates that are no marker", () => {
    const buf = Buffer.from(`${'"r"w"e\\x'.repeat(4000)}"wri`, "latin1");
    assert.deepEqual(both(buf, 0, buf.length), [false, false]);
    const withOne = Buffer.concat([buf, Buffer.from('te"', "latin1")]);
    assert.deepEqual(both(withOne, 0, withOne.length), [true, true]);
  });
});
