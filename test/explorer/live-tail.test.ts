import { strict as assert } from "node:assert";
import { appendFileSync, rmSync } from "node:fs";
import { StaleSessionError } from "../../src/core/session/jsonl-session";
import { Session } from "../../src/core/formats/pi/pi-session";
import { ExplorerController } from "../../src/explorer/controller";
import { LiveTail } from "../../src/explorer/live-tail";
import type { SessionChangedMessage } from "../../src/protocol";
import { assistant, header, user, writeSession } from "../helpers/session-builder";

const line = (o: unknown) => `${JSON.stringify(o)}\n`;

async function setUp() {
  const file = writeSession([header(), user("u1", null, "hello"), assistant("a1", "u1", "hi")]);
  let session: Session | undefined = await Session.load(file);
  const c = new ExplorerController(session, { trusted: () => true });
  c.init();
  const seen = { changed: [] as Array<SessionChangedMessage | undefined>, reloads: [] as StaleSessionError[], failures: [] as Error[] };
  let onChange: () => void = () => undefined;
  const tail = new LiveTail({
    session: () => session,
    changed: () => {
      seen.changed.push(c.sessionChanged({ followDefault: true }));
      onChange();
    },
    reload: async (err) => {
      seen.reloads.push(err);
      session = await Session.load(file);
      c.setSession(session);
    },
    failed: (err) => seen.failures.push(err),
  });
  /** Resolves at the next change the tail reports (one it starts on its own). */
  const nextChange = () => new Promise<void>((resolve) => (onChange = resolve));
  return { file, c, tail, seen, nextChange, drop: () => (session = undefined) };
}

describe("explorer live tail", () => {
  it("appended lines reach the controller as one sessionChanged with what was added", async () => {
    const { file, c, tail, seen } = await setUp();
    appendFileSync(file, line(user("u2", "a1", "more")) + line(assistant("a2", "u2", "sure")));
    await tail.fileChanged();
    assert.equal(seen.changed.length, 1);
    assert.equal(seen.changed[0]?.added, 2);
    assert.equal(seen.changed[0]?.session.defaultLeafId, "a2");
    assert.equal(c.rowCount, 4);
    // A change that added nothing (a touch): no message.
    await tail.fileChanged();
    assert.equal(seen.changed.length, 2);
    assert.equal(seen.changed[1], undefined);
    assert.deepEqual(seen.failures, []);
  });

  it("changes reported during a refresh are read by one more refresh after it, not one each", async () => {
    const { file, tail, seen } = await setUp();
    appendFileSync(file, line(user("u2", "a1", "first burst")));
    const first = tail.fileChanged();
    appendFileSync(file, line(user("u3", "u2", "second burst")));
    await Promise.all([tail.fileChanged(), tail.fileChanged(), first]);
    assert.equal(seen.changed.length, 2, "the refresh in progress and one more");
    assert.equal(
      seen.changed.reduce((n, m) => n + (m?.added ?? 0), 0),
      2,
    );
  });

  it("a rewritten (shrunk) file is handed to reload and the reloaded session is shown", async () => {
    const { file, c, tail, seen } = await setUp();
    writeSession([header(), user("x1", null, "new")], { dir: file.replace(/[\\/][^\\/]+$/, ""), name: "session.jsonl" });
    await tail.fileChanged();
    assert.equal(seen.reloads.length, 1);
    assert.ok(seen.reloads[0] instanceof StaleSessionError);
    assert.equal(seen.changed.length, 0, "a reload is not an append");
    assert.equal(c.session.metas[0].id, "x1");
    assert.deepEqual(seen.failures, []);
  });

  it("reading the rest of a first look holds changes back until it is done", async () => {
    const { file, tail, seen, nextChange } = await setUp();
    let release: () => void = () => undefined;
    const reading = tail.whileReading(() => new Promise<void>((resolve) => (release = resolve)));
    appendFileSync(file, line(user("u2", "a1", "during the read")));
    await tail.fileChanged();
    assert.equal(seen.changed.length, 0, "waits for the read");
    const changed = nextChange();
    release();
    await reading;
    // The held-back change runs on its own after the read.
    await changed;
    assert.equal(seen.changed.length, 1);
    assert.equal(seen.changed[0]?.added, 1);
  });

  it("a file that went away is reported as a failure; no session, nothing to do", async () => {
    const { file, tail, seen, drop } = await setUp();
    rmSync(file);
    await tail.fileChanged();
    assert.equal(seen.failures.length, 1);
    assert.match(seen.failures[0].message, /ENOENT/);
    assert.deepEqual(seen.reloads, []);
    drop();
    await tail.fileChanged();
    assert.equal(seen.failures.length, 1);
  });
});
