import { strict as assert } from "node:assert";
import { appendFileSync, statSync, writeFileSync } from "node:fs";
import { openSession } from "../../src/core/formats/registry";
import type { FormatLoadOptions } from "../../src/core/session/session-format";
import type { SessionReader } from "../../src/core/session/session-reader";
import { StaleSessionError } from "../../src/core/session/jsonl-session";
import type { LiveSession } from "../../src/explorer/live-session";
import { type LifecycleHost, SessionLifecycle } from "../../src/explorer/session-lifecycle";
import type { HostToWebview, LoadingMessage, SessionChangedMessage } from "../../src/protocol";
import { assistant, header, type Raw, user, writeSession } from "../helpers/session-builder";

const line = (o: unknown) => `${JSON.stringify(o)}\n`;

/** A chain of n user/assistant entries after pi's header. */
function chain(n: number): Raw[] {
  const out: Raw[] = [header()];
  for (let i = 1; i <= n; i++) out.push(i % 2 ? user(`e${i}`, i > 1 ? `e${i - 1}` : null, `message ${i}`) : assistant(`e${i}`, `e${i - 1}`, `reply ${i}`));
  return out;
}

/** A promise and the function that resolves it: lets a test hold a load at one step. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Waits for a condition the lifecycle reaches on its own (a reload after a tail); no fixed sleep. */
async function until(what: string, ok: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A lifecycle over a fake host that records what it is sent, logs and reports. */
function start(file: string, extra: Partial<LifecycleHost> = {}) {
  const sent: HostToWebview[] = [];
  const logs: string[] = [];
  const percents: number[] = [];
  const titles: string[] = [];
  const host: LifecycleHost = {
    withProgress: async (title, work) => {
      titles.push(title);
      await work((p) => percents.push(p));
    },
    send: (m) => sent.push(m),
    log: { info: (m) => logs.push(`info: ${m}`), warn: (m) => logs.push(`warn: ${m}`), error: (m) => logs.push(`error: ${m}`) },
    explorer: { trusted: () => true },
    ...extra,
  };
  const life = new SessionLifecycle(file, host);
  return { life, sent, logs, percents, titles, types: () => sent.map((m) => m.type) };
}

/** Opens through the registry as the panel does, after `before` (a gate, a progress report). */
function openAfter(before: (opts: FormatLoadOptions) => Promise<void>): (path: string, opts: FormatLoadOptions) => Promise<SessionReader> {
  return async (path, opts) => {
    await before(opts);
    return openSession(path, opts);
  };
}

describe("explorer session lifecycle (load, first part, failure and Retry, tail, close)", () => {
  it("loads with progress to 100%, sends nothing before the webview is ready, then answers ready with init", async () => {
    const file = writeSession(chain(4));
    const { life, sent, percents, titles, types } = start(file);
    await life.whenLoaded();
    assert.equal(life.failure, undefined);
    assert.equal(life.session?.metas.length, 4);
    assert.deepEqual(titles, ["Loading session.jsonl"]);
    assert.equal(percents.at(-1), 100);
    assert.deepEqual(sent, [], "a webview not ready yet would lose messages");
    await life.ready();
    assert.deepEqual(types(), ["init"]);
    assert.equal(life.stats.inits, 1);
    assert.equal(life.entriesShown, 4);
  });

  it("a webview that comes up during a load gets the latest progress at once, then init", async () => {
    const file = writeSession(chain(4));
    const held = gate();
    const { life, sent } = start(file, {
      open: openAfter(async (opts) => {
        opts.onProgress?.(50, 200);
        await held.wait;
      }),
    });
    const ready = life.ready();
    assert.deepEqual(sent[0], { type: "loading", bytesRead: 50, totalBytes: 200 } satisfies LoadingMessage);
    held.open();
    await ready;
    assert.equal(sent.at(-1)?.type, "init");
    assert.equal(sent.filter((m) => m.type === "init").length, 1);
  });

  it("a large session is shown from its first part; the rest arrives as one sessionChanged", async () => {
    const lines = chain(6);
    const file = writeSession(lines);
    const firstPartBytes = Buffer.byteLength(lines.slice(0, 3).map(line).join(""));
    const rest = gate();
    const { life, sent, logs } = start(file, {
      firstPart: () => firstPartBytes,
      open: async (path, opts) => {
        const s = (await openSession(path, opts)) as LiveSession;
        const readRest = s.refresh.bind(s);
        // The rest waits until the test has looked at the first part.
        s.refresh = async (o) => {
          await rest.wait;
          return readRest(o);
        };
        return s;
      },
    });
    await life.whenShown();
    assert.equal(life.session?.complete, false);
    assert.equal(life.session?.metas.length, 2);
    assert.equal(life.stats.firstLook?.entries, 2);
    assert.ok(logs.some((l) => l.includes("showing the first 2 entries")), logs.join("\n"));
    await life.ready();
    assert.deepEqual(sent.map((m) => m.type), ["init"]);
    // The header says how much of the file is read so far.
    const init = sent[0];
    assert.ok(init.type === "init");
    assert.deepEqual(init.session.reading, { bytesRead: firstPartBytes, totalBytes: statSync(file).size });
    rest.open();
    await life.whenLoaded();
    assert.equal(life.session?.complete, true);
    assert.equal(life.session?.metas.length, 6);
    const changed = sent.filter((m): m is SessionChangedMessage => m.type === "sessionChanged");
    assert.equal(changed.length, 1);
    assert.equal(changed[0].added, 4);
    assert.equal(changed[0].session.reading, undefined, "read whole");
  });

  it("a file rewritten while its rest is read is read again from the start, up to three times", async () => {
    const lines = chain(6);
    const file = writeSession(lines);
    const firstPartBytes = Buffer.byteLength(lines.slice(0, 3).map(line).join(""));
    const staleUntil = (opensStale: number) => {
      let opens = 0;
      const open = async (path: string, opts: FormatLoadOptions) => {
        opens++;
        const s = (await openSession(path, opts)) as LiveSession;
        if (opens <= opensStale) s.refresh = async () => Promise.reject(new StaleSessionError(path, "rewritten in the test"));
        return s;
      };
      return { open, opens: () => opens };
    };
    const once = staleUntil(1);
    const a = start(file, { firstPart: () => firstPartBytes, open: once.open });
    await a.life.whenLoaded();
    assert.equal(once.opens(), 2);
    assert.equal(a.life.failure, undefined);
    assert.equal(a.life.session?.metas.length, 6);
    assert.ok(a.logs.some((l) => l.startsWith("warn:") && l.includes("reading it again")));

    const always = staleUntil(Infinity);
    const b = start(file, { firstPart: () => firstPartBytes, open: always.open });
    await b.life.whenLoaded();
    assert.equal(always.opens(), 3);
    assert.match(b.life.failure ?? "", /rewritten in the test/);
    assert.equal(b.life.session, undefined);
  });

  it("a failed load is told at ready and answered as such; Retry loads the fixed file", async () => {
    const file = writeSession(["this is not json", line(user("u1", null, "hi"))]);
    const { life, sent, types } = start(file);
    await life.whenLoaded();
    const reason = life.failure;
    assert.ok(reason, "the load should have failed");
    assert.equal(life.stats.loadFailures, 1);
    await life.ready();
    assert.deepEqual(sent, [{ type: "loadFailed", file, reason }]);
    await assert.rejects(life.answer({ type: "rows", requestId: 1, start: 0, count: 10 }), (err: Error) => err.message === `the session could not be loaded: ${reason}`);
    writeFileSync(file, chain(2).map(line).join(""));
    await life.retry("Retry in the test");
    assert.equal(life.failure, undefined);
    assert.equal(life.session?.metas.length, 2);
    // The second load shows its progress to the webview that is up, then its init.
    assert.deepEqual([...new Set(types())], ["loadFailed", "loading", "init"]);
  });

  it("a failed load is loaded again when the file changes (finished being written)", async () => {
    const file = writeSession([line(header()).slice(0, 20)], { trailingNewline: false });
    const { life, types } = start(file);
    await life.whenLoaded();
    assert.ok(life.failure);
    await life.ready();
    // The failed load had reported progress: a webview that comes up afterwards gets the failure alone.
    assert.deepEqual(types(), ["loadFailed"]);
    writeFileSync(file, chain(3).map(line).join(""));
    await life.fileChanged();
    assert.equal(life.failure, undefined);
    assert.equal(life.session?.metas.length, 3);
    assert.equal(types().at(-1), "init");
  });

  it("appended lines reach the webview as sessionChanged; a rewritten file is reloaded with a notice and a new init", async () => {
    const file = writeSession(chain(2));
    const { life, sent } = start(file);
    await life.whenLoaded();
    await life.ready();
    appendFileSync(file, line(user("e3", "e2", "more")) + line(assistant("e4", "e3", "sure")));
    await life.fileChanged();
    const changed = sent.at(-1) as SessionChangedMessage;
    assert.equal(changed.type, "sessionChanged");
    assert.equal(changed.added, 2);
    assert.equal(life.stats.changes, 1);

    writeFileSync(file, chain(1).map(line).join(""));
    await life.fileChanged();
    await until("the reload", () => life.stats.reloads === 1 && life.stats.inits === 2);
    assert.equal(life.session?.metas.length, 1);
    assert.match(life.stats.lastNotice ?? "", /session\.jsonl was rewritten on disk; reloaded it\./);
    assert.equal(sent.at(-1)?.type, "init");
  });

  it("closing during a load stops it: the reader sees the abort, nothing is sent, no failure is kept", async () => {
    const file = writeSession(chain(3));
    const held = gate();
    let signal: AbortSignal | undefined;
    const { life, sent, logs } = start(file, {
      open: openAfter(async (opts) => {
        signal = opts.signal;
        await held.wait;
        opts.signal?.throwIfAborted();
      }),
    });
    const ready = life.ready();
    life.dispose();
    held.open();
    await life.whenLoaded();
    await ready;
    assert.equal(signal?.aborted, true);
    assert.equal(life.failure, undefined);
    assert.equal(life.stats.loadFailures, 0);
    assert.equal(life.session, undefined);
    assert.ok(logs.some((l) => l.includes("stopped loading")), logs.join("\n"));
    assert.deepEqual(sent, []);
    // Retry and file changes do nothing once closed.
    await life.retry("after close");
    await life.fileChanged();
    assert.equal(life.session, undefined);
  });

  it("an entry to show is posted after every init until the webview reveals it; an unknown id throws", async () => {
    const file = writeSession(chain(3));
    const { life, sent, types } = start(file);
    await life.showEntry("e2");
    assert.deepEqual(sent, [], "not before the webview is ready");
    await life.ready();
    assert.deepEqual(sent.at(-1), { type: "showEntry", id: "e2" });
    // The panel was hidden and shown: a new webview says ready again and still gets it.
    await life.ready();
    assert.deepEqual(types(), ["init", "showEntry", "init", "showEntry"]);
    await life.answer({ type: "reveal", requestId: 1, id: "e2" });
    await life.ready();
    assert.equal(types().at(-1), "init");
    await assert.rejects(life.showEntry("nope"), /has no entry "nope"/);
  });
  it("a webview request gets exactly one reply: the answer, or the error's message (counted)", async () => {
    const file = writeSession(chain(3));
    const { life, sent, logs } = start(file);
    await life.ready();
    await life.respond({ type: "rows", requestId: 7, start: 0, count: 10 });
    const ok = sent.at(-1);
    assert.ok(ok?.type === "reply" && ok.ok && ok.requestId === 7, JSON.stringify(ok).slice(0, 300));
    assert.equal(life.stats.rowRequests, 1);
    assert.equal(life.stats.rowsServed, 3);
    await life.respond({ type: "details", requestId: 8, id: "no-such-entry" });
    const failed = sent.at(-1);
    assert.ok(failed?.type === "reply" && !failed.ok && failed.requestId === 8 && /no-such-entry/.test(failed.error ?? ""), JSON.stringify(failed));
    assert.equal(life.stats.errors, 1);
    assert.ok(logs.some((l) => l.startsWith("error: details request failed")), logs.join("\n"));
  });
  it("a timeline overtaken by a newer one is answered as such and logged as information, not as an error", async () => {
    // Long enough that the first timeline is still being computed (in slices) when the second is asked for.
    const file = writeSession(chain(4000));
    const { life, sent, logs } = start(file);
    await life.ready();
    const first = life.respond({ type: "timeline", requestId: 21, leafId: "e4000" });
    const second = life.respond({ type: "timeline", requestId: 22, leafId: "e3999" });
    await Promise.all([first, second]);
    const replies = sent.filter((m) => m.type === "reply");
    const r21 = replies.find((m) => m.type === "reply" && m.requestId === 21);
    const r22 = replies.find((m) => m.type === "reply" && m.requestId === 22);
    assert.ok(r21?.type === "reply" && !r21.ok && /newer timeline/.test(r21.error ?? ""), JSON.stringify(r21).slice(0, 300));
    assert.ok(r22?.type === "reply" && r22.ok, JSON.stringify(r22).slice(0, 300));
    assert.equal(life.stats.errors, 0, "an overtaken request is not an error");
    assert.ok(!logs.some((l) => l.startsWith("error:")), logs.join("\n"));
    assert.ok(logs.some((l) => /^info: timeline request overtaken/.test(l)), logs.join("\n"));
  });
});
