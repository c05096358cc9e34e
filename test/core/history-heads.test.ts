import { strict as assert } from "node:assert";
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { listAllSessions, listCacheFile } from "../../src/core/formats/list-all";
import { piScanner } from "../../src/core/formats/pi/list";
import { HistoryIndex } from "../../src/core/history/history-index";
import type { SessionSummary } from "../../src/core/store/discover";
import { sessionTitle } from "../../src/core/util/session-title";
import { assistant, entry, header, tempDir, toolResult, user, writeSession, type Raw } from "../helpers/session-builder";

/** A session that reads `file`, with `named` lines placed among its entries. */
function piSession(dir: string, name: string, file: string, named: { middle?: string; end?: string; endTorn?: boolean }): string {
  const lines: Array<Raw | string> = [header({ cwd: "/w" }), user("u1", null, `Prompt of ${name}`)];
  lines.push(assistant("a1", "u1", "", { toolCalls: [{ id: "c1", name: "read", arguments: { path: file } }] }));
  if (named.middle !== undefined) lines.push(entry("session_info", "n1", "a1", { name: named.middle }));
  lines.push(toolResult("r1", named.middle !== undefined ? "n1" : "a1", "c1", "read", "text"));
  if (named.end !== undefined) lines.push(entry("session_info", "n2", "r1", { name: named.end }));
  return writeSession(lines, { dir, name, trailingNewline: !named.endTorn });
}

/** Titles by session path, as the full listing (what `ase list` and the Sessions view show) makes them. */
async function listedTitles(root: string): Promise<Map<string, string>> {
  const res = await listAllSessions({ dirs: { pi: root }, only: ["pi"], env: {} });
  const out = new Map<string, string>();
  for (const p of res.projects) for (const s of p.sessions) out.set(s.path, sessionTitle(s, s.path));
  return out;
}

/** Titles by session path, as the history gives them for the files it looks up. */
function historyTitles(index: HistoryIndex, files: string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of files) for (const t of index.lookup(f)) out.set(t.sessionPath, t.sessionTitle);
  return out;
}

function store(): { root: string; files: string[] } {
  const root = tempDir();
  const dir = join(root, "--w--");
  mkdirSync(dir, { recursive: true });
  const files = ["/w/a.ts", "/w/b.ts", "/w/c.ts", "/w/d.ts", "/w/e.ts"];
  piSession(dir, "2026-01-01T00-00-00-000Z_middle.jsonl", files[0], { middle: "Named in the middle" });
  piSession(dir, "2026-01-02T00-00-00-000Z_end.jsonl", files[1], { end: "Named at the end" });
  piSession(dir, "2026-01-03T00-00-00-000Z_both.jsonl", files[2], { middle: "First name", end: "  Second name  " });
  piSession(dir, "2026-01-04T00-00-00-000Z_torn.jsonl", files[3], { end: "Named on a last line without newline", endTorn: true });
  piSession(dir, "2026-01-05T00-00-00-000Z_none.jsonl", files[4], {});
  return { root, files };
}

describe("per-file history: its listing reads the heads only", () => {
  it("a heads-only listing scans no tail, marks its sessions so, and writes nothing into the listing's cache", async () => {
    const { root } = store();
    const cacheDir = join(tempDir(), "cache");
    const res = await listAllSessions({ dirs: { pi: root }, only: ["pi"], env: {}, cacheDir, headsOnly: true });
    const sessions: SessionSummary[] = res.projects.flatMap((p) => p.sessions);
    assert.equal(sessions.length, 5);
    for (const s of sessions) {
      assert.equal(s.headsOnly, true, s.path);
      assert.equal(s.entryCount, -1, "the line count is unknown");
      assert.equal(s.name, undefined, "the tail's names are the reader's to find");
    }
    // Less than the files' bytes were read (the heads are the files here: they are small).
    assert.ok(res.stats.scannedBytes <= sessions.reduce((n, s) => n + s.size, 0));
    assert.equal(existsSync(listCacheFile(cacheDir, "pi")), false, "the listing's own cache is not written");

    // The listing the Sessions view and `ase list` make, with the same cache folder: whole records.
    const full = await listAllSessions({ dirs: { pi: root }, only: ["pi"], env: {}, cacheDir });
    const byName = new Map(full.projects.flatMap((p) => p.sessions).map((s) => [s.path.split("_").pop(), s]));
    for (const s of byName.values()) {
      assert.equal(s.headsOnly, undefined);
      assert.ok(s.entryCount >= 3, `${s.path}: ${s.entryCount} entries`);
    }
    assert.equal(byName.get("middle.jsonl")?.name, "Named in the middle");
    assert.equal(byName.get("both.jsonl")?.name, "Second name");
    const written = readFileSync(listCacheFile(cacheDir, "pi"), "utf8");
    assert.equal(written.includes('"headsOnly"'), false);

    // A heads-only listing after it takes the whole records from that cache, and leaves it as it was.
    const before = statSync(listCacheFile(cacheDir, "pi")).mtimeMs;
    const again = await listAllSessions({ dirs: { pi: root }, only: ["pi"], env: {}, cacheDir, headsOnly: true });
    assert.equal(again.stats.fromCache, 5);
    assert.equal(readFileSync(listCacheFile(cacheDir, "pi"), "utf8"), written);
    assert.equal(statSync(listCacheFile(cacheDir, "pi")).mtimeMs, before);
  });

  it("the history's titles are the listing's: names set by session_info lines in the middle, at the end, twice, on a last line without newline, and none", async () => {
    const { root, files } = store();
    const want = await listedTitles(root);
    assert.equal(want.size, 5);
    assert.ok([...want.values()].includes("Named at the end"));
    assert.ok([...want.values()].includes("Prompt of 2026-01-05T00-00-00-000Z_none.jsonl"));
    for (const threads of [1, 2] as const) {
      const cacheDir = join(tempDir(), "cache");
      const index = new HistoryIndex({ dirs: { pi: root }, only: ["pi"], env: {}, cacheDir, threads });
      await index.refresh();
      assert.deepEqual(historyTitles(index, files), want, `threads: ${threads}`);
      // From the history's cache in a new process (same stamps): the same titles, nothing read.
      const warm = new HistoryIndex({ dirs: { pi: root }, only: ["pi"], env: {}, cacheDir, threads });
      await warm.refresh();
      assert.equal(warm.sessionReads, 0);
      assert.deepEqual(historyTitles(warm, files), want);
      // And again in the same process (a lookup's refresh).
      await warm.refresh();
      assert.deepEqual(historyTitles(warm, files), want);
    }
  });

  it("a head is parsed up to its first prompt with words: the same facts as from every line of it", async () => {
    const root = tempDir();
    const dir = join(root, "--w--");
    mkdirSync(dir, { recursive: true });
    const imageOnly = { ...user("u1", null, ""), message: { role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] } };
    const path = writeSession(["null", "not json", header({ cwd: "/w" }), imageOnly, assistant("a1", "u1", "look"), user("u2", "a1", "  The   words  "), user("u3", "u2", "later")], { dir, name: "s.jsonl" });
    const every = readFileSync(path, "utf8")
      .split("\n")
      .flatMap((l) => {
        try {
          const o = JSON.parse(l) as unknown;
          return o && typeof o === "object" ? [o as Record<string, unknown>] : [];
        } catch {
          return [];
        }
      });
    const want = piScanner.head(every, statSync(path).size);
    assert.equal(want.firstMessage, "The words");
    for (const headsOnly of [false, true]) {
      const [s] = (await listAllSessions({ dirs: { pi: root }, only: ["pi"], env: {}, headsOnly })).projects[0].sessions;
      assert.deepEqual({ id: s.id, cwd: s.cwd, version: s.version, created: s.created, firstMessage: s.firstMessage, parentSession: s.parentSession }, want);
    }
  });

  it("a heads-only listing reads a small head first, and the whole head where that does not settle a session's facts: the same facts as the full listing", async () => {
    const root = tempDir();
    const dir = join(root, "--w--");
    mkdirSync(dir, { recursive: true });
    const big = "x".repeat(40 * 1024);
    writeSession([header({ cwd: "/w/near" }), user("u1", null, "Near the start")], { dir, name: "2026-01-01T00-00-00-000Z_near.jsonl" });
    // The first prompt after 40 KB of other lines, and a first prompt 100 KB long (its line cut by a small read).
    writeSession([header({ cwd: "/w/late" }), entry("custom", "c1", null, { customType: "note", data: big }), user("u1", "c1", "After a long line")], { dir, name: "2026-01-02T00-00-00-000Z_late.jsonl" });
    writeSession([header({ cwd: "/w/long" }), user("u1", null, `Long ${"y".repeat(100 * 1024)}`)], { dir, name: "2026-01-03T00-00-00-000Z_long.jsonl" });
    // No prompt at all within the whole head (260 KB of other lines first).
    writeSession([header({ cwd: "/w/none" }), ...[1, 2, 3, 4, 5, 6, 7].map((k) => entry("custom", `c${k}`, k > 1 ? `c${k - 1}` : null, { data: big })), user("u1", "c7", "Past the head")], { dir, name: "2026-01-04T00-00-00-000Z_none.jsonl" });
    const facts = async (headsOnly: boolean) => {
      const res = await listAllSessions({ dirs: { pi: root }, only: ["pi"], env: {}, headsOnly });
      const out = new Map<string, unknown>();
      for (const s of res.projects.flatMap((p) => p.sessions)) out.set(s.path.split("_").pop() as string, { cwd: s.cwd, id: s.id, created: s.created, firstMessage: s.firstMessage, title: sessionTitle({ ...s, name: undefined }, s.path) });
      return { out, scanned: res.stats.scannedBytes };
    };
    const full = await facts(false);
    const heads = await facts(true);
    assert.equal(full.out.size, 4);
    assert.deepEqual(heads.out, full.out);
    assert.equal((full.out.get("late.jsonl") as { firstMessage: string }).firstMessage, "After a long line");
    assert.match((full.out.get("long.jsonl") as { firstMessage: string }).firstMessage, /^Long y/);
    // The near session's head was read small; the others' whole (up to 256 KiB, or the first line).
    assert.ok(heads.scanned < 16 * 1024 + 2 * 256 * 1024 + 110 * 1024, `${heads.scanned} bytes read of the heads`);
  });
});
