import { strict as assert } from "node:assert";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { stringScan } from "../../src/core/store/json-string-scan";
import { isValidJson } from "../../src/core/store/json-valid";

/** Every fixture the project reads from ../shared (the tests' own root is the project's). */
const SHARED_FIXTURES = resolve(process.cwd(), "..", "shared", "fixtures");
const LIMIT = 512;

/** A small deterministic generator (the same cases every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * For bytes JSON.parse accepts: how deep they nest, and the raw text of the keys of each
 * object the own-keys rule checks: the line's own object and the objects that are its
 * members' values (null for a line that is not an object). Written apart from
 * json-valid.ts, plainly, char by char: it needs only to be right on valid JSON.
 */
function shapeOf(text: string): { depth: number; keyLists: string[][] | null } {
  let deepest = 0;
  const lists: string[][] = [];
  // Per open container: whether it is an object, its keys when checked, whether a key comes next.
  const open: Array<{ object: boolean; keys?: string[]; expectKey: boolean }> = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    const top = open[open.length - 1];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      if (top?.object && top.expectKey) top.keys?.push(text.slice(i + 1, j));
      if (top) top.expectKey = false;
      i = j;
    } else if (c === "{" || c === "[") {
      const object = c === "{";
      const checked = object && (open.length === 0 || (open.length === 1 && open[0].object));
      const entry = { object, expectKey: object, ...(checked ? { keys: [] as string[] } : {}) };
      if (entry.keys) lists.push(entry.keys);
      open.push(entry);
      deepest = Math.max(deepest, open.length);
    } else if (c === "}" || c === "]") open.pop();
    else if (c === "," && top) top.expectKey = top.object;
  }
  return { depth: deepest, keyLists: text.trimStart().startsWith("{") ? lists : null };
}

/** What isValidJson must answer for the bytes, from JSON.parse and the two rules beside it. */
function expected(b: Uint8Array, ownKeysOnce: boolean): boolean {
  const text = Buffer.from(b).toString("utf8");
  try {
    JSON.parse(text);
  } catch {
    return false;
  }
  const { depth, keyLists } = shapeOf(text);
  if (depth > LIMIT) return false;
  if (!ownKeysOnce || !keyLists) return true;
  // Each checked object: no key twice, none escaped, at most 64 keys (json-valid's MAX_KEYS).
  return keyLists.every((keys) => keys.length <= 64 && new Set(keys).size === keys.length && keys.every((k) => !k.includes("\\")));
}

/** The line placed inside a larger buffer, as a read chunk holds it, with bytes that must not be read either side. */
function inChunk(line: Buffer, lead: number): { buf: Buffer; start: number; end: number } {
  const buf = Buffer.concat([Buffer.alloc(lead, 0x22), line, Buffer.from('"\\\x01"\n')]);
  return { buf, start: lead, end: lead + line.length };
}

let checked = 0;

/** isValidJson, on the SIMD path and forced onto the JavaScript one, against what it must answer. */
function check(line: Buffer, what: string, lead = 0): void {
  const { buf, start, end } = inChunk(line, lead);
  for (const ownKeysOnce of [false, true]) {
    const want = expected(line, ownKeysOnce);
    const simd = isValidJson(buf, start, end, LIMIT, { ownKeysOnce });
    const js = isValidJson(buf, start, end, LIMIT, { ownKeysOnce, simd: false });
    assert.equal(simd, want, `SIMD path, ${what} (own keys once: ${ownKeysOnce}): ${line.toString("utf8").slice(0, 300)}`);
    assert.equal(js, want, `JavaScript path, ${what} (own keys once: ${ownKeysOnce}): ${line.toString("utf8").slice(0, 300)}`);
  }
  checked++;
}

/** A tool-result line whose text is `text`, raw (its escapes written by the caller). */
function toolLine(text: string, pad = ""): Buffer {
  return Buffer.from(`{"type":"message","id":"a1${pad}","message":{"role":"toolResult","content":[{"type":"text","text":"${text}"}]},"n":1}`);
}

/** What may stand in a long string: good and bad escapes, raw control characters, multi-byte UTF-8. */
const HAZARDS = [
  '\\"', "\\\\", "\\/", "\\n", "\\t", "\\u0041", "\\uD83D\\uDE00", "é", "中文", "😀",
  "\\x", "\\u12", "\\u12G4", "\\a", "\\'", '"', "\x00", "\x01", "\x09", "\x0a", "\x0d", "\x1f", "\x7f", "\x80",
];

describe("JSON strings scanned 16 bytes at a time (json-string-scan.ts) in isValidJson", () => {
  it("runs here: this Node has WebAssembly SIMD, so the tests below compare the two paths", () => {
    assert.ok(stringScan(), "no WebAssembly SIMD in this Node: the SIMD path is untested");
  });

  it("finds the first quote, control character or backslash not of a one-character escape, from every start to every end, else end", () => {
    const scan = stringScan();
    assert.ok(scan);
    const simple = new Set([..."\"\\/bfnrt"].map((c) => c.charCodeAt(0)));
    const next = rng(27);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(next() * 70);
      const b = new Uint8Array(n + 8);
      for (let k = 0; k < b.length; k++) b[k] = 0x20 + Math.floor(next() * 0x5f);
      const stops = Math.floor(next() * 8);
      for (let s = 0; s < stops; s++) b[Math.floor(next() * b.length)] = [0x22, 0x5c, 0x5c, 0x5c, 0x00, 0x1f, 0x0a, 0x6e, 0x75][Math.floor(next() * 9)];
      const lead = Math.floor(next() * 4);
      scan.load(b, lead, n);
      for (let p = lead; p <= n; p++) {
        let want = p;
        while (want < n && b[want] !== 0x22 && b[want] >= 0x20) {
          if (b[want] === 0x5c && !(want + 1 < n && simple.has(b[want + 1]))) break;
          want += b[want] === 0x5c ? 2 : 1;
        }
        assert.equal(scan.next(p, n), want, `from ${p} to ${n} in [${b.subarray(lead, n).join(",")}]`);
      }
    }
  });

  it("grows its memory for a long line and gives it back when a short one follows, reading the right bytes after each", () => {
    const scan = stringScan();
    assert.ok(scan);
    const long = Buffer.alloc(6 * 2 ** 20, 0x61);
    long[long.length - 3] = 0x22;
    scan.load(long, 0, long.length);
    assert.ok(scan.memoryBytes() >= long.length + 16, `memory ${scan.memoryBytes()} for a line of ${long.length}`);
    assert.equal(scan.next(0, long.length), long.length - 3);
    const short = Buffer.from('xx"abcdefghijklmnopqrstuvwxyz\\nq\\u0041"yy');
    scan.load(short, 2, short.length - 2);
    assert.ok(scan.memoryBytes() <= 4 * 2 ** 20, `memory still ${scan.memoryBytes()} after a line of ${short.length - 4}`);
    assert.equal(scan.next(3, short.length - 2), short.indexOf("\\u"), "the \\u escape, the others stepped over");
    assert.equal(isValidJson(short, 2, short.length - 2, LIMIT), true);
  });

  it("agrees with JSON.parse on long strings with every hazard at every position modulo 16, and both paths answer alike", () => {
    const filler = "The quick brown fox jumps over the lazy dog 0123456789 ".repeat(8);
    for (const hazard of HAZARDS) {
      for (let at = 0; at < 48; at++) {
        // The hazard at `at` within a string of ~340 bytes, the line's start moved too.
        check(toolLine(filler.slice(0, 40 + at) + hazard + filler.slice(0, 250)), `${JSON.stringify(hazard)} at ${at}`, at % 5);
        // ...and as the string's last bytes, its closing quote just after.
        check(toolLine(filler.slice(0, 300 + at) + hazard), `${JSON.stringify(hazard)} ending the string, ${at}`);
      }
    }
  });

  it("agrees on strings whose closing quote falls on every 16-byte boundary, and lines ending in a hazard", () => {
    for (let len = 240; len < 290; len++) {
      const text = "x".repeat(len);
      check(toolLine(text), `a string of ${len}`);
      check(Buffer.from(`"${text}"`), `a bare string of ${len}`);
      for (const last of ["\x00", "\x1f", "\\", '"', "é"]) check(Buffer.from(`"${text}${last}`), `a bare string of ${len} ending in ${JSON.stringify(last)}`);
      check(Buffer.from(`["${text}","${text.slice(0, len % 17)}"]`), `two strings, ${len}`);
    }
  });

  it("agrees on torn lines: a long line cut at every byte of its last 300 and at scattered points before", () => {
    const line = toolLine(`${"a\\\"b\\\\c\\u00e9 中 ".repeat(40)}end`, "pad");
    const next = rng(31);
    for (let cut = line.length; cut > line.length - 300; cut--) check(line.subarray(0, cut), `cut at ${cut}`);
    for (let k = 0; k < 200; k++) check(line.subarray(0, Math.floor(next() * line.length)), "cut at random");
  });

  it("agrees on random long lines made of hazards, with repeated and escaped keys, after longer lines left bytes in the scan's memory", () => {
    const next = rng(17);
    const pick = <T>(a: readonly T[]) => a[Math.floor(next() * a.length)];
    // A line of 200 KB first: the memory grows, and what follows is shorter than what it left.
    check(toolLine(`${'\\"'.repeat(50_000)}${"y".repeat(100_000)}`), "200 KB");
    for (let k = 0; k < 1500; k++) {
      let text = "";
      while (text.length < 200 + next() * 600) text += next() < 0.15 ? pick(HAZARDS) : "z".repeat(Math.floor(next() * 40));
      const key = pick(["type", "id", "t\\u0079pe", "n"]);
      // A member's object is held to the rule too (a skim reads message.role, payload.type); an array's objects are not.
      const inner = pick(["role", "r\\u006fle", "n", "tail"]);
      const many = k % 50 === 0 ? Array.from({ length: 64 + (k % 100 === 0 ? 1 : 0) }, (_, n) => `,"k${n}":1`).join("") : "";
      const line = Buffer.from(`{"type":"m","id":"${k}","message":{"role":"x","${inner}":"${text.slice(0, 20)}"${many}},"${key}":"${text}","tail":[{"a":"${text.slice(0, 30)}","a":1}]}`);
      check(line, `random ${k}`, k % 7);
    }
  });

  it("agrees with JSON.parse on every line of every fixture under ../shared/fixtures, whole and torn", function () {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(jsonl|json)$/.test(name)) files.push(path);
      }
    };
    try {
      walk(SHARED_FIXTURES);
    } catch {
      if (process.env.CI) throw new Error(`fixtures missing at ${SHARED_FIXTURES} (CI must have ../shared)`);
      this.skip();
    }
    assert.ok(files.length >= 30, `only ${files.length} fixture files under ${SHARED_FIXTURES}`);
    const before = checked;
    let long = 0;
    for (const file of files) {
      const bytes = readFileSync(file);
      let start = 0;
      while (start < bytes.length) {
        let end = bytes.indexOf(0x0a, start);
        if (end < 0) end = bytes.length;
        const line = bytes.subarray(start, end);
        check(line, `${file}:${start}`);
        if (line.length >= 256) {
          long++;
          for (const cut of [line.length - 1, line.length - 17, line.length >> 1]) check(line.subarray(0, cut), `${file}:${start} cut at ${cut}`);
        }
        start = end + 1;
      }
    }
    assert.ok(long > 500, `only ${long} long fixture lines: the SIMD path was hardly used`);
    assert.ok(checked - before > 2000, `only ${checked - before} fixture lines`);
  });
});
