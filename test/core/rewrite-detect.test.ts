import { strict as assert } from "node:assert";
import { appendFileSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { watchFile } from "../../src/extension/file-watch";
import { StaleSessionError } from "../../src/core/session/jsonl-session";
import { Session } from "../../src/core/formats/pi/pi-session";
import { header, type Raw, user, writeSession } from "../helpers/session-builder";

const jsonl = (lines: Raw[]) => lines.map((l) => JSON.stringify(l)).join("\n") + "\n";

/** A v1 file (no version, no ids) of n user messages, as pi wrote them before v2. */
function v1Lines(n: number): Raw[] {
  const h = header();
  delete h.version;
  const out: Raw[] = [h];
  for (let i = 0; i < n; i++) {
    const u = user("x", null, `message ${i}`);
    delete u.id;
    delete u.parentId;
    out.push(u);
  }
  return out;
}

/** The same conversation as pi's migration writes it: v3, ids and parents, longer lines. */
function v3Lines(n: number): Raw[] {
  const out: Raw[] = [header()];
  for (let i = 0; i < n; i++) out.push(user(`m${String(i).padStart(7, "0")}`, i ? `m${String(i - 1).padStart(7, "0")}` : null, `message ${i}`));
  return out;
}

/** A whole-second mtime, which utimes can put back exactly. */
const ROUND = new Date("2026-01-02T03:04:05Z");

/** Rewrites a file in place (same inode) and puts its mtime back to ROUND. */
function rewriteKeepingMtime(path: string, text: string): void {
  writeFileSync(path, text);
  utimesSync(path, ROUND, ROUND);
}

describe("a session file changed other than by appending is reloaded, never tailed", () => {
  it("pi's in-place v1 -> v3 migration while open: refresh refuses to tail it", async () => {
    const path = writeSession(v1Lines(30));
    const s = await Session.load(path);
    assert.equal(s.version, 1);
    writeFileSync(path, jsonl(v3Lines(30)));
    assert.ok(statSync(path).size > s.size);
    await assert.rejects(s.refresh(), StaleSessionError);
    const again = await Session.load(path);
    assert.equal(again.version, 3);
    assert.equal(again.metas.length, 30);
  });

  it("a header changed to the same length, with lines appended: refused", async () => {
    const path = writeSession(v3Lines(5));
    const s = await Session.load(path);
    const text = readFileSync(path, "utf8").replace("/home/ana/proj", "/home/bob/proj");
    writeFileSync(path, text + JSON.stringify(user("added", "m0000004", "more")) + "\n");
    await assert.rejects(s.refresh(), /first or last lines were rewritten/);
  });

  it("same size, same mtime, same inode, different last line: refresh and the check before a write both notice", async () => {
    const path = writeSession(v3Lines(5));
    utimesSync(path, ROUND, ROUND);
    const s = await Session.load(path);
    const before = readFileSync(path, "utf8");
    const ino = statSync(path).ino;
    rewriteKeepingMtime(path, before.replace("message 4", "massage 4"));
    assert.equal(statSync(path).ino, ino);
    assert.equal(statSync(path).size, s.size);
    assert.equal(statSync(path).mtimeMs, s.stamp.mtimeMs);
    assert.throws(() => s.checkUnchanged(), StaleSessionError);
    await assert.rejects(s.refresh(), StaleSessionError);
  });

  it("a pure append is tailed (nothing reloaded), also after an earlier append", async () => {
    const path = writeSession(v3Lines(5));
    const s = await Session.load(path);
    appendFileSync(path, JSON.stringify(user("a1", "m0000004", "one")) + "\n");
    assert.deepEqual(await s.refresh(), { added: 1 });
    appendFileSync(path, JSON.stringify(user("a2", "a1", "two")) + "\n");
    assert.deepEqual(await s.refresh(), { added: 1 });
    assert.equal(s.metas.length, 7);
    s.checkUnchanged();
  });

  it("the explorer's file watcher sees a same-size rewrite with the mtime put back", async function () {
    this.timeout(60_000);
    const path = writeSession(v3Lines(5));
    utimesSync(path, ROUND, ROUND);
    const before = readFileSync(path, "utf8");
    let changes = 0;
    let seen: () => void = () => undefined;
    const changed = new Promise<void>((resolve) => (seen = resolve));
    const w = watchFile(path, () => {
      changes++;
      seen();
    }, 100);
    try {
      rewriteKeepingMtime(path, before.replace("message 4", "massage 4"));
      await changed;
      assert.equal(changes, 1);
    } finally {
      w.dispose();
    }
  });
});
