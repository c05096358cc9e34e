import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { candidateFinder } from "../../src/core/search/candidates";
import { requiredLiterals } from "../../src/core/search/regex-literal";
import { compilePattern } from "../../src/core/search/pattern";
import { searchSessions, type SearchOptions } from "../../src/core/search/search-sessions";
import type { SessionHits } from "../../src/core/search/search-types";
import { snippetOf } from "../../src/core/search/snippet";
import { buildStores, storeDirs } from "../helpers/search-stores";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

async function collect(opts: SearchOptions): Promise<SessionHits[]> {
  const out: SessionHits[] = [];
  for await (const s of searchSessions(opts)) out.push(s);
  return out;
}

/** A pi session of n user/assistant pairs; every 7th prompt mentions the needle. */
function longSession(dir: string, name: string, n: number, needle: string): string {
  const lines: Array<Record<string, unknown> | string> = [header()];
  let parent: string | null = null;
  for (let k = 0; k < n; k++) {
    const u = `u${k}`;
    const a = `a${k}`;
    lines.push(user(u, parent, k % 7 === 3 ? `step ${k}: look at ${needle} again\nplease` : `step ${k}: nothing to see`));
    // Blank lines count as lines too.
    if (k % 5 === 0) lines.push("");
    lines.push(assistant(a, u, `done with step ${k} ${"x".repeat(k % 13)}`));
    parent = a;
  }
  return writeSession(lines, { dir, name });
}

describe("search: reading files in chunks", () => {
  it("any chunk size gives the same hits and line numbers, lines longer than a chunk included", async () => {
    const dir = tempDir();
    const file = longSession(dir, "long.jsonl", 200, "the Quux");
    const want = readFileSync(file, "utf8")
      .split("\n")
      .flatMap((l, k) => (l.includes("the Quux") ? [k + 1] : []));
    assert.equal(want.length, 29);
    for (const chunkSize of [16, 100, 333, 4096, 1 << 22]) {
      const [s] = await collect({ pattern: "the quux", files: [file], chunkSize });
      assert.deepEqual(s.hits.map((h) => h.line), want, `chunk ${chunkSize}`);
      assert.deepEqual(s.hits.slice(0, 2).map((h) => h.entryId), ["u3", "u10"]);
    }
    for (const chunkSize of [16, 333]) {
      const [s] = await collect({ pattern: "Quux", caseSensitive: true, files: [file], chunkSize });
      assert.equal(s.hits.length, 29, `case-sensitive, chunk ${chunkSize}`);
    }
  });

  it("a last line without a newline is searched; a torn line is passed over", async () => {
    const dir = tempDir();
    const file = writeSession([header(), user("u1", null, "first zork"), '{"type":"message","id":"bad","mess', user("u2", "u1", "last zork")], { dir, trailingNewline: false });
    const [s] = await collect({ pattern: "zork", files: [file], chunkSize: 32 });
    assert.deepEqual(s.hits.map((h) => `${h.entryId}@${h.line}`), ["u1@2", "u2@4"]);
  });

  it("pi v1 entries get their ids from the line number, as the reader gives them", async () => {
    const dir = tempDir();
    const file = writeSession([{ type: "session", id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" }, { type: "message", timestamp: "2026-01-01T00:00:01.000Z", message: { role: "user", content: "hello plugh" } }], { dir });
    const [s] = await collect({ pattern: "plugh", files: [file] });
    assert.deepEqual(s.hits.map((h) => `${h.entryId}@${h.line}`), ["00000002@2"]);
  });

  it("only reads: files, their mtimes and folders are as they were", async () => {
    const st = buildStores();
    const files = [st.piFile, st.ccFile, st.clFile, st.seedFile];
    const before = files.map((f) => [readFileSync(f, "utf8"), statSync(f).mtimeMs]);
    await collect({ pattern: "frobnicator", dirs: storeDirs(st), env: {} });
    await collect({ pattern: "frob.*", regex: true, files });
    assert.deepEqual(files.map((f) => [readFileSync(f, "utf8"), statSync(f).mtimeMs]), before);
  });
});

describe("search: streaming and cancellation", () => {
  /** Three sessions with a hit each, newest a, then b, then c. */
  function three(): string[] {
    const dir = tempDir();
    return ["a", "b", "c"].map((n, k) => {
      const f = writeSession([header(), user(`${n}1`, null, `session ${n}: the wibble`)], { dir, name: `${n}.jsonl` });
      const t = new Date(Date.UTC(2026, 0, 10 - k));
      utimesSync(f, t, t);
      return f;
    });
  }

  it("a file's hits are yielded before the next file is read", async () => {
    const files = three();
    const events: string[] = [];
    const name = (p: string) => p.slice(-7);
    for await (const s of searchSessions({ pattern: "wibble", files, onFile: (p) => events.push(`read ${name(p)}`) })) events.push(`hit ${name(s.path)}`);
    assert.deepEqual(events, ["read a.jsonl", "hit a.jsonl", "read b.jsonl", "hit b.jsonl", "read c.jsonl", "hit c.jsonl"]);
  });

  it("an abort stops the scan at once: the iteration rejects and no further file is read", async () => {
    const files = three();
    const ac = new AbortController();
    const read: string[] = [];
    const search = searchSessions({ pattern: "wibble", files, signal: ac.signal, onFile: (p) => read.push(p) });
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const s of search) {
          seen.push(s.path);
          ac.abort();
        }
      })(),
      (e: Error) => e.name === "AbortError",
    );
    assert.deepEqual(seen, [files[0]]);
    assert.deepEqual(read, [files[0]]);
  });

  it("no file stays open: not after a break, an abort, a limit, nor the end", async function () {
    if (process.platform !== "linux") this.skip();
    const openFiles = () => readdirSync("/proc/self/fd").length;
    const files = three();
    const before = openFiles();
    for await (const _ of searchSessions({ pattern: "wibble", files })) break;
    assert.equal(openFiles(), before, "after a break");
    const ac = new AbortController();
    await assert.rejects(async () => {
      for await (const _ of searchSessions({ pattern: "wibble", files, signal: ac.signal })) ac.abort();
    });
    assert.equal(openFiles(), before, "after an abort");
    for await (const _ of searchSessions({ pattern: "wibble", files, limit: 1 }));
    assert.equal(openFiles(), before, "after the limit");
    for await (const _ of searchSessions({ pattern: "wibble", files: [...files, join(tempDir(), "gone.jsonl")] }));
    assert.equal(openFiles(), before, "after the end");
  });

  it("an abort mid-file stops between chunks, long before the file's end", async () => {
    const dir = tempDir();
    const file = longSession(dir, "big.jsonl", 3000, "needle");
    const size = statSync(file).size;
    const ac = new AbortController();
    const search = searchSessions({ pattern: "needle", files: [file], signal: ac.signal, chunkSize: 4096, onFile: () => setImmediate(() => ac.abort()) });
    await assert.rejects(async () => {
      for await (const _ of search) assert.fail("the file's hits come after its end, which the abort prevents");
    }, (e: Error) => e.name === "AbortError");
    assert.ok(search.scanned.bytes < size / 4, `${search.scanned.bytes} of ${size} bytes read`);
    // The same search without the abort reads it all.
    const whole = searchSessions({ pattern: "needle", files: [file], chunkSize: 4096 });
    for await (const _ of whole);
    assert.equal(whole.scanned.bytes, size);
  });
});

describe("search: pattern pieces", () => {
  it("the case-insensitive finders (SIMD, RegExp) find every place a plain scan finds, and only those", () => {
    // Random text over a small alphabet with both cases, so the needles occur often and at chunk edges.
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) / (1 << 24);
    const alphabet = "abcABC xX_7";
    const text = Array.from({ length: 20_000 }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
    for (const needle of ["a", "Ab", "cab", "x_7a", "aBc", "bax7C"]) {
      const want: number[] = [];
      const lower = text.toLowerCase();
      for (let k = lower.indexOf(needle.toLowerCase()); k !== -1; k = lower.indexOf(needle.toLowerCase(), k + 1)) want.push(k);
      const p = compilePattern(needle);
      for (const simd of [true, false]) {
        const f = candidateFinder(p, { simd });
        const [buf] = f.buffers?.(32 * 1024) ?? [Buffer.alloc(32 * 1024)];
        const n = buf.write(text, "latin1");
        f.begin(buf, n);
        const got: number[] = [];
        for (let k = f.next(0); k !== -1; k = f.next(k + 1)) got.push(k);
        assert.deepEqual(got, want, `${needle} (simd ${simd})`);
        assert.ok(want.length > 0, needle);
      }
    }
  });

  it("the raw-byte literal of a regex is a run every match must hold", () => {
    assert.deepEqual(requiredLiterals("foo\\d+bar"), ["foo", "bar"]);
    assert.deepEqual(requiredLiterals("colou?r"), ["colo", "r"]);
    assert.deepEqual(requiredLiterals("ab*c"), ["a", "c"]);
    assert.deepEqual(requiredLiterals("x{2}yz"), ["yz"]);
    assert.deepEqual(requiredLiterals("(foo|bar)baz"), ["baz"]);
    assert.deepEqual(requiredLiterals("foo|bar"), []);
    assert.deepEqual(requiredLiterals("[abc]def\\.g"), ["def.g"]);
    assert.deepEqual(requiredLiterals("\\x41bc"), ["bc"]);
    assert.deepEqual(requiredLiterals("^start.end$"), ["start", "end"]);
    assert.deepEqual(requiredLiterals("a+b"), ["a", "b"]);
  });

  it("the literal holds only characters JSON writers never escape", () => {
    assert.equal(compilePattern('say "hi" there').literal, " there");
    assert.equal(compilePattern("café au lait").literal, " au lait");
    assert.equal(compilePattern("é").literal, undefined);
    assert.equal(compilePattern("a<b>c&d").literal, "a");
    assert.equal(compilePattern("\\d+", { regex: true }).literal, undefined);
  });

  it("non-ASCII and quoted text is found through its JSON escapes", async () => {
    const dir = tempDir();
    // ensure_ascii writers escape é as \u00e9; quotes are always escaped.
    const file = writeSession([header(), '{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"un caf\\u00e9 \\"noir\\""}}'], { dir });
    assert.deepEqual((await collect({ pattern: "CAFÉ", files: [file] }))[0]?.hits.map((h) => h.entryId), ["u1"]);
    assert.deepEqual((await collect({ pattern: '"noir"', files: [file] }))[0]?.hits.map((h) => h.entryId), ["u1"]);
  });

  it("a snippet: 60 characters either side, line breaks as spaces, cut ends marked", () => {
    const text = `${"a".repeat(100)}\nNEEDLE\r\n${"b".repeat(100)}`;
    const s = snippetOf(text, 101, 107);
    assert.equal(s.text, `…${"a".repeat(59)} NEEDLE  ${"b".repeat(58)}…`);
    assert.equal(s.text.slice(...s.match), "NEEDLE");
    const short = snippetOf("x NEEDLE y", 2, 8);
    assert.deepEqual(short, { text: "x NEEDLE y", match: [2, 8] });
    // No cut through a surrogate pair.
    const emoji = `${"😀".repeat(40)}NEEDLE`;
    const e = snippetOf(emoji, 80, 86);
    assert.ok(!/^…[\udc00-\udfff]/.test(e.text), "starts on a whole character");
    assert.equal(e.text.slice(...e.match), "NEEDLE");
    // A long match is shown up to 200 characters, with nothing after it.
    const long = snippetOf("z".repeat(1000), 0, 1000);
    assert.equal(long.text, `${"z".repeat(200)}…`);
    assert.deepEqual(long.match, [0, 200]);
  });
});
