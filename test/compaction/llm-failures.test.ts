import { strict as assert } from "node:assert";
import { appendFileSync, readFileSync } from "node:fs";
import { compactSession, type CompactionProgress } from "../../src/core/formats/pi/compaction/compact";
import type { SummaryBudgets } from "../../src/core/compaction/budgets";
import { SummaryError } from "../../src/core/compaction/llm-errors";
import { DEFAULT_SUMMARY_MODEL } from "../../src/core/compaction/summary-model";
import { TRUNCATION_MARKER } from "../../src/core/formats/pi/compaction/truncate";
import { Session } from "../../src/core/formats/pi/pi-session";
import { FakeAnthropic, type FakeReply } from "./fake-anthropic";
import { expectOneCompactionLine, expectUnchanged, FAST_RETRY, SMALL, turnsSession } from "./helpers";

const KEY = "sk-test-key";

describe("compaction through the real SDK against a fake Messages API", () => {
  let fake: FakeAnthropic;
  afterEach(async () => fake?.close());

  async function run(replies: FakeReply[], opts: { stream?: boolean; allowFallback?: boolean; budgets?: Partial<SummaryBudgets>; signal?: AbortSignal; onProgress?: (p: CompactionProgress) => void } = {}) {
    fake = await FakeAnthropic.start(replies, { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const promise = compactSession(session, {
      settings: SMALL,
      llm: { apiKey: KEY, baseURL: fake.url, stream: opts.stream, budgets: opts.budgets ?? { idleMs: 5000 }, retry: FAST_RETRY },
      allowFallback: opts.allowFallback,
      signal: opts.signal,
      onProgress: opts.onProgress,
    });
    return { file, before, promise };
  }

  async function failsWith(p: Promise<unknown>, kind: SummaryError["kind"]): Promise<SummaryError> {
    try {
      await p;
    } catch (err) {
      assert.ok(err instanceof SummaryError, `expected SummaryError, got ${(err as Error).stack}`);
      assert.equal(err.kind, kind, err.message);
      return err;
    }
    assert.fail("expected a failure");
  }

  it("streaming: progress events, one new line, reads back as summary + kept entries", async () => {
    const events: CompactionProgress[] = [];
    const { file, before, promise } = await run([], { onProgress: (p) => events.push(p) });
    fake.push({ kind: "message", text: "## Goal\nHISTORY SUMMARY", chunks: 4 }, { kind: "message", text: "## Original Request\nPREFIX SUMMARY" });
    const out = await promise;
    const e = await expectOneCompactionLine(file, before, "HISTORY SUMMARY");
    assert.equal(e.id, out.entry.id);
    assert.equal(e.parentId, "a0000007");
    assert.deepEqual(e.details, { readFiles: ["/src/a.ts"], modifiedFiles: ["/src/b.ts", "/src/c.ts"] });
    assert.ok(String(e.summary).endsWith("<read-files>\n/src/a.ts\n</read-files>\n\n<modified-files>\n/src/b.ts\n/src/c.ts\n</modified-files>"));
    assert.ok(events.some((p) => p.type === "text"));
    assert.ok(events.some((p) => p.type === "done"));
    assert.ok(fake.requests.every((r) => r.body.stream === true && r.body.model === "claude-sonnet-4-5"));
    const history = fake.requests.find((r) => r.body.max_tokens === Math.floor(0.8 * SMALL.reserveTokens));
    assert.ok(history, "history request with 0.8 x reserve");
    assert.ok(history.prompt.startsWith("<conversation>\n[User]: Please fix the parser."));
    assert.ok(history.prompt.includes("[Assistant tool calls]: read(path=\"/src/a.ts\")"));
    assert.ok(out.tokensAfter > out.plan.keptTokens, "after = summary + kept");
  });

  it("non-streaming answers work the same", async () => {
    const { file, before, promise } = await run([{ kind: "message", text: "NON STREAMED" }], { stream: false });
    await promise;
    await expectOneCompactionLine(file, before, "NON STREAMED");
    assert.ok(fake.requests.every((r) => r.body.stream !== true));
  });

  it("split turn: the turn prefix is summarized in parallel with 0.5 x reserve and merged", async () => {
    fake = await FakeAnthropic.start((req) => ({ kind: "message", text: req.body.max_tokens === Math.floor(0.5 * SMALL.reserveTokens) ? "PREFIX PART" : "HISTORY PART" }), { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const out = await compactSession(session, { settings: { reserveTokens: 2000, keepRecentTokens: 60 }, llm: { apiKey: KEY, baseURL: fake.url, retry: FAST_RETRY } });
    assert.ok(out.plan.isSplitTurn, "cut inside the last turn");
    const e = await expectOneCompactionLine(file, before);
    const s = String(e.summary);
    assert.ok(s.indexOf("HISTORY PART") < s.indexOf("PREFIX PART"));
    assert.equal(fake.requests.length, 2);
  });

  it("401: a clear message, no retry, nothing written", async () => {
    fake = await FakeAnthropic.start([], { apiKey: "another-key" });
    const file = turnsSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const err = await failsWith(compactSession(session, { settings: SMALL, allowFallback: true, llm: { apiKey: KEY, baseURL: fake.url, retry: FAST_RETRY } }), "auth");
    assert.match(err.message, /API key was rejected \(401\)/);
    assert.ok(!err.message.includes(KEY), "the key is never echoed");
    assert.equal(fake.requests.length, 1);
    expectUnchanged(file, before);
  });

  it("403 is an auth failure too, even with fallback allowed", async () => {
    const { file, before, promise } = await run([{ kind: "error", status: 403, type: "permission_error" }], { allowFallback: true });
    await failsWith(promise, "auth");
    expectUnchanged(file, before);
  });

  it("the session's own model is not found (retired): the default model writes the summary", async () => {
    const retired = (req: { body: { model?: string } }): FakeReply =>
      req.body.model === "claude-sonnet-4-5" ? { kind: "error", status: 404, type: "not_found_error", message: "model: claude-sonnet-4-5" } : { kind: "message", text: "## Goal\nFROM THE DEFAULT MODEL" };
    fake = await FakeAnthropic.start(retired, { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const events: CompactionProgress[] = [];
    const out = await compactSession(session, { settings: SMALL, llm: { apiKey: KEY, baseURL: fake.url, retry: FAST_RETRY }, onProgress: (p) => events.push(p) });
    assert.equal(out.plan.modelSource, "session");
    assert.equal(out.model, DEFAULT_SUMMARY_MODEL);
    assert.equal(out.strategy, "summarize");
    await expectOneCompactionLine(file, before, "FROM THE DEFAULT MODEL");
    assert.deepEqual(fake.requests.map((r) => r.body.model), ["claude-sonnet-4-5", DEFAULT_SUMMARY_MODEL]);
    assert.ok(events.some((p) => p.type === "retry" && p.reason.includes(`trying ${DEFAULT_SUMMARY_MODEL}`)), "the switch is reported");
  });

  it("a model the caller named that is not found fails clearly: no other model is tried, nothing written", async () => {
    fake = await FakeAnthropic.start(() => ({ kind: "error", status: 404, type: "not_found_error", message: "model: claude-nope" }), { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const err = await failsWith(compactSession(session, { settings: SMALL, allowFallback: true, llm: { apiKey: KEY, baseURL: fake.url, model: "claude-nope", retry: FAST_RETRY } }), "bad-request");
    assert.match(err.message, /not found \(404\), check the model "claude-nope"/);
    assert.deepEqual(fake.requests.map((r) => r.body.model), ["claude-nope"]);
    expectUnchanged(file, before);
  });

  it("429 then success: retried, one line written", async () => {
    const events: CompactionProgress[] = [];
    const { file, before, promise } = await run([{ kind: "error", status: 429, type: "rate_limit_error", headers: { "retry-after": "0" } }, { kind: "message", text: "AFTER RETRY" }], {
      onProgress: (p) => events.push(p),
    });
    await promise;
    await expectOneCompactionLine(file, before, "AFTER RETRY");
    assert.equal(fake.requests.length, 2);
    assert.ok(events.some((p) => p.type === "retry"));
  });

  it("SDK deprecation warnings become one warning event per request; console.warn is not called, and is put back", async () => {
    const events: CompactionProgress[] = [];
    const spy = (...args: unknown[]) => {
      calls.push(args.map(String).join(" "));
    };
    const calls: string[] = [];
    const original = console.warn;
    console.warn = spy;
    let after: typeof console.warn;
    try {
      const { file, before, promise } = await run([{ kind: "error", status: 529, type: "overloaded_error" }, { kind: "message", text: "AFTER RETRY" }], { onProgress: (p) => events.push(p) });
      await promise;
      await expectOneCompactionLine(file, before, "AFTER RETRY");
    } finally {
      after = console.warn;
      console.warn = original;
    }
    assert.equal(after, spy, "console.warn is what it was before the request");
    assert.deepEqual(calls, [], "nothing reached console.warn");
    assert.equal(fake.requests[0].body.model, "claude-sonnet-4-5");
    const warnings = events.filter((p) => p.type === "warning");
    assert.equal(warnings.length, 1, "two attempts, one warning");
    assert.match((warnings[0] as { message: string }).message, /^The model 'claude-sonnet-4-5' is deprecated and will reach end-of-life on [^\n]+$/);
  });

  it("529 every time: retries run out, nothing written", async () => {
    const overloaded: FakeReply = { kind: "error", status: 529, type: "overloaded_error" };
    const { file, before, promise } = await run([overloaded, overloaded, overloaded, overloaded]);
    const err = await failsWith(promise, "overloaded");
    assert.match(err.message, /after 3 attempts/);
    assert.equal(fake.requests.length, 3);
    expectUnchanged(file, before);
  });

  it("500 every time with fallback allowed: a truncation is written instead", async () => {
    const e500: FakeReply = { kind: "error", status: 500 };
    const { file, before, promise } = await run([e500, e500, e500], { allowFallback: true });
    const out = await promise;
    assert.equal(out.strategy, "truncate");
    assert.match(String(out.fallbackReason), /server error \(500\)/);
    await expectOneCompactionLine(file, before, TRUNCATION_MARKER);
  });

  it("a server that never answers times out (short timeout), nothing written", async () => {
    const { file, before, promise } = await run([{ kind: "hang" }, { kind: "hang" }, { kind: "hang" }], { budgets: { idleMs: 150 } });
    await failsWith(promise, "timeout");
    expectUnchanged(file, before);
  });

  it("a stream that stalls halfway times out, nothing written", async () => {
    const stall: FakeReply = { kind: "stall-mid-stream", text: "half a summary" };
    const { file, before, promise } = await run([stall, stall, stall], { budgets: { idleMs: 150 } });
    await failsWith(promise, "timeout");
    expectUnchanged(file, before);
  });

  it("malformed JSON (non-streaming) fails without writing", async () => {
    const { file, before, promise } = await run([{ kind: "malformed" }], { stream: false });
    await failsWith(promise, "bad-response");
    expectUnchanged(file, before);
  });

  it("malformed event in a stream fails without writing", async () => {
    const bad: FakeReply = { kind: "malformed" };
    const { file, before, promise } = await run([bad, bad, bad]);
    const err = await promise.then(
      () => assert.fail("expected a failure"),
      (e: unknown) => e as SummaryError,
    );
    assert.ok(err instanceof SummaryError, String(err));
    expectUnchanged(file, before);
  });

  it("connection reset mid-stream: retried, then nothing written", async () => {
    const reset: FakeReply = { kind: "reset-mid-stream", text: "a partial summary that must never be written" };
    const { file, before, promise } = await run([reset, reset, reset]);
    await failsWith(promise, "network");
    assert.equal(fake.requests.length, 3);
    expectUnchanged(file, before);
  });

  it("connection reset once, then success", async () => {
    const { file, before, promise } = await run([{ kind: "reset-mid-stream", text: "partial" }, { kind: "message", text: "SECOND TRY" }]);
    await promise;
    await expectOneCompactionLine(file, before, "SECOND TRY");
  });

  it("cancel mid-stream: rejects as cancelled, nothing written", async () => {
    const ctl = new AbortController();
    const { file, before, promise } = await run([{ kind: "message", text: "x".repeat(4000), chunks: 40, chunkDelayMs: 20 }], {
      signal: ctl.signal,
      onProgress: (p) => {
        if (p.type === "text") ctl.abort();
      },
    });
    await failsWith(promise, "cancelled");
    expectUnchanged(file, before);
  });

  it("cancel during the retry wait: nothing written", async () => {
    const ctl = new AbortController();
    fake = await FakeAnthropic.start([{ kind: "error", status: 529 }], { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const p = compactSession(session, {
      settings: SMALL,
      signal: ctl.signal,
      allowFallback: true,
      llm: { apiKey: KEY, baseURL: fake.url, retry: { maxAttempts: 3, baseDelayMs: 10_000, maxDelayMs: 10_000 } },
      onProgress: (e) => {
        if (e.type === "retry") setTimeout(() => ctl.abort(), 5);
      },
    });
    await failsWith(p, "cancelled");
    expectUnchanged(file, before);
  });

  it("the file changed while summarizing: nothing written (stale)", async () => {
    fake = await FakeAnthropic.start([{ kind: "message", text: "LATE", chunkDelayMs: 30, chunks: 3 }], { apiKey: KEY });
    const file = turnsSession();
    const session = await Session.load(file);
    const p = compactSession(session, {
      settings: SMALL,
      llm: { apiKey: KEY, baseURL: fake.url, retry: FAST_RETRY },
      onProgress: (e) => {
        if (e.type === "request") appendFileSync(file, `${JSON.stringify({ type: "label", id: "aaaaaaaa", parentId: "a0000007", timestamp: new Date().toISOString(), targetId: "u0000001", label: "x" })}\n`);
      },
    });
    await assert.rejects(p, /changed on disk/);
    const after = readFileSync(file, "utf8");
    assert.ok(!after.includes('"type":"compaction"'));
  });
});
