import { strict as assert } from "node:assert";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Session } from "../../src/core/formats/pi/pi-session";
import { realPathInside } from "../../src/core/util/path-inside";
import { LOG_MESSAGE_MAX, logLine, logTo } from "../../src/extension/log";
import { OPEN_ON_START, sessionsToOpen } from "../../src/extension/open-on-start";
import { header, tempDir, user, writeSession } from "../helpers/session-builder";

const SECRET = "root:x:0:0:TOP-SECRET:/root:/bin/bash";

/** A workspace folder with a session, next to a folder of private files outside it. */
function layout() {
  const root = tempDir();
  const ws = join(root, "ws");
  const outside = join(root, "private");
  mkdirSync(join(ws, ".agent-sessions"), { recursive: true });
  mkdirSync(outside);
  const inside = writeSession([header(), user("00000001", null, "hi")], { dir: ws, name: "inside.jsonl" });
  const passwd = join(outside, "passwd");
  writeFileSync(passwd, `${SECRET}\nsecond line\n`);
  const outsideSession = writeSession([header(), user("00000001", null, "hi")], { dir: outside, name: "other.jsonl" });
  symlinkSync(passwd, join(ws, "link.jsonl"));
  return { root, ws, outside, inside, passwd, outsideSession };
}

function quietLog() {
  const lines: string[] = [];
  return { lines, log: { info: (m: string) => lines.push(m), warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m), show: () => undefined } };
}

describe("untrusted workspaces: open.json opens only session files inside the workspace", () => {
  it("realPathInside: follows symlinks, refuses ../, siblings with the same prefix, missing files and folders", () => {
    const { root, ws, inside, outsideSession } = layout();
    assert.deepEqual(realPathInside(inside, [ws]), { inside: true, real: inside });
    const link = realPathInside(join(ws, "link.jsonl"), [ws]);
    assert.deepEqual(link, { inside: false, reason: "leads outside the workspace folders through a symbolic link", leadsOut: "link" });
    assert.equal(realPathInside(join(ws, "..", "private", "other.jsonl"), [ws]).inside, false);
    assert.equal(realPathInside(outsideSession, [ws]).inside, false);
    mkdirSync(join(root, "ws-evil"));
    const sibling = writeSession([header()], { dir: join(root, "ws-evil"), name: "s.jsonl" });
    assert.equal(realPathInside(sibling, [ws]).inside, false, "a folder whose name starts like the workspace's is not inside it");
    assert.deepEqual(realPathInside(join(ws, "missing.jsonl"), [ws]), { inside: false, reason: "does not exist" });
    mkdirSync(join(ws, "dir.jsonl"));
    assert.deepEqual(realPathInside(join(ws, "dir.jsonl"), [ws]), { inside: false, reason: "is not a regular file" });
    // A workspace opened through a symlinked folder still holds its own files.
    symlinkSync(ws, join(root, "ws-link"));
    assert.deepEqual(realPathInside(join(root, "ws-link", "inside.jsonl"), [join(root, "ws-link")]), { inside: true, real: inside });
    // A link inside the folder to another file inside it is fine.
    symlinkSync(inside, join(ws, "alias.jsonl"));
    assert.deepEqual(realPathInside(join(ws, "alias.jsonl"), [ws]), { inside: true, real: inside });
  });

  it("untrusted: the session inside opens; absolute paths, ../ and a .jsonl link to a private file are refused, naming open.json and the reason", () => {
    const { ws, inside, outsideSession } = layout();
    const listed = ["inside.jsonl", "link.jsonl", outsideSession, "../private/other.jsonl"];
    writeFileSync(join(ws, OPEN_ON_START), JSON.stringify({ open: listed }));
    const { lines, log } = quietLog();
    const res = sessionsToOpen([ws], false, log);
    assert.deepEqual(res.open, [inside]);
    assert.deepEqual(res.refused.map((r) => r.path), [join(ws, "link.jsonl"), outsideSession, join(ws, "..", "private", "other.jsonl")]);
    for (const r of res.refused) {
      assert.ok(r.message.startsWith(`${join(ws, OPEN_ON_START)}: not opened: `), r.message);
      assert.match(r.message, /until the workspace is trusted, only session files inside its folders are opened$/);
      assert.ok(!r.message.includes("TOP-SECRET"), r.message);
    }
    assert.match(res.refused[0].message, /link\.jsonl leads outside the workspace folders through a symbolic link/);
    assert.match(res.refused[1].message, /other\.jsonl is outside the workspace folders/);
    assert.deepEqual(lines, []);
  });

  it("trusted: every listed path is opened as before", () => {
    const { ws, outsideSession } = layout();
    writeFileSync(join(ws, OPEN_ON_START), JSON.stringify({ open: ["inside.jsonl", "link.jsonl", outsideSession] }));
    const res = sessionsToOpen([ws], true, quietLog().log);
    assert.deepEqual(res.open, [join(ws, "inside.jsonl"), join(ws, "link.jsonl"), outsideSession]);
    assert.deepEqual(res.refused, []);
  });

  it("a .jsonl link to a private file, opened anyway (trusted): the error never quotes the file", async () => {
    const { ws } = layout();
    await assert.rejects(Session.load(join(ws, "link.jsonl")), (err: Error) => {
      assert.match(err.message, /link\.jsonl: not a pi session file: first line is not a session header/);
      assert.doesNotMatch(err.message, /TOP-SECRET|root:x|second line/);
      return true;
    });
  });

  it("a broken or odd open.json is reported without quoting it", () => {
    const { ws } = layout();
    writeFileSync(join(ws, OPEN_ON_START), `{"open": ["${SECRET}`);
    const a = quietLog();
    assert.deepEqual(sessionsToOpen([ws], false, a.log), { open: [], refused: [] });
    assert.deepEqual(a.lines, [`${join(ws, OPEN_ON_START)}: not read: not valid JSON`]);
    writeFileSync(join(ws, OPEN_ON_START), JSON.stringify({ open: [42, "notes.txt"] }));
    const b = quietLog();
    sessionsToOpen([ws], false, b.log);
    assert.equal(b.lines.length, 2);
  });
});

describe("extension log: one event, one line", () => {
  it("line breaks in session text are escaped, hidden characters marked, megabyte messages cut", () => {
    assert.equal(logLine("labelled 00000001 in /s.jsonl: ok\n2026-01-01 [error] forged"), "labelled 00000001 in /s.jsonl: ok\\n2026-01-01 [error] forged");
    assert.equal(logLine("name \u202Eexe.txt \u001b[2J"), "name ⟨U+202E⟩exe.txt ⟨U+001B⟩[2J");
    assert.ok(logLine("x".repeat(1024 * 1024)).length <= LOG_MESSAGE_MAX);
    const got: string[] = [];
    const ch = { info: (m: string) => got.push(`info ${m}`), warn: (m: string) => got.push(`warn ${m}`), error: (m: string) => got.push(`error ${m}`), show: () => undefined, dispose: () => undefined };
    const log = logTo(ch);
    log.info("a\nb");
    log.warn("c\r\nd");
    log.error("e\u0000");
    assert.deepEqual(got, ["info a\\nb", "warn c\\r\\nd", "error e⟨U+0000⟩"]);
  });
});
