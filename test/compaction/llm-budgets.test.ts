import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import type { SummaryBudgets } from "../../src/core/compaction/budgets";
import { compactSession } from "../../src/core/formats/pi/compaction/compact";
import { BudgetError, SummaryError } from "../../src/core/compaction/llm-errors";
import { parseRetryAfter } from "../../src/core/compaction/retry-after";
import { requestSummary, type RetryPolicy, type SummaryProgress } from "../../src/core/compaction/summarizer";
import { summaryStatus } from "../../src/core/compaction/progress-text";
import { Session } from "../../src/core/formats/pi/pi-session";
import { FakeAnthropic, type FakeReply } from "./fake-anthropic";
import { expectOneCompactionLine, expectUnchanged, SMALL, turnsSession } from "./helpers";

const KEY = "sk-test-key";
const REQ = { part: "history" as const, system: "sys", prompt: "summarize this", maxTokens: 100 };

/** A retry policy whose sleep records each wait and returns at once. */
function recordingRetry(maxAttempts = 4): { retry: Partial<RetryPolicy>; delays: number[] } {
  const delays: number[] = [];
  return { delays, retry: { maxAttempts, baseDelayMs: 1, maxDelayMs: 2, sleep: async (ms: number) => void delays.push(ms) } };
}

async function rejection(p: Promise<unknown>): Promise<SummaryError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof SummaryError, `expected SummaryError, got ${(err as Error).stack}`);
    return err;
  }
  assert.fail("expected a failure");
}

describe("summary requests: retry-after and time budgets (fake Messages API)", () => {
  let fake: FakeAnthropic;
  afterEach(async () => fake?.close());

  async function ask(replies: FakeReply[], o: { budgets?: Partial<SummaryBudgets>; retry?: Partial<RetryPolicy>; stream?: boolean; clock?: () => number; onProgress?: (p: SummaryProgress) => void; progressIntervalMs?: number } = {}) {
    fake = await FakeAnthropic.start(replies, { apiKey: KEY });
    return requestSummary(REQ, { apiKey: KEY, baseURL: fake.url, model: "claude-haiku-4-5", ...o });
  }

  for (const stream of [true, false]) {
    const how = stream ? "streaming" : "not streaming";
    it(`429 with retry-after: 3 waits exactly 3000 ms before the retry (${how})`, async () => {
      const { retry, delays } = recordingRetry();
      const r = await ask([{ kind: "error", status: 429, type: "rate_limit_error", headers: { "retry-after": "3" } }, { kind: "message", text: "OK" }], { retry, stream });
      assert.equal(r.text, "OK");
      assert.deepEqual(delays, [3000]);
      assert.equal(fake.requests.length, 2);
    });
  }

  it("retry-after-ms wins over retry-after", async () => {
    const { retry, delays } = recordingRetry();
    await ask([{ kind: "error", status: 529, type: "overloaded_error", headers: { "retry-after-ms": "1500", "retry-after": "9" } }, { kind: "message", text: "OK" }], { retry });
    assert.deepEqual(delays, [1500]);
  });

  it("retry-after as an HTTP date is measured from the (injected) clock", async () => {
    const { retry, delays } = recordingRetry();
    const now = Date.UTC(2026, 10, 23, 8, 0, 0);
    const at = new Date(now + 3000).toUTCString();
    await ask([{ kind: "error", status: 429, headers: { "retry-after": at } }, { kind: "message", text: "OK" }], { retry, clock: () => now });
    assert.deepEqual(delays, [3000]);
  });

  it("a retry-after longer than what is left of the overall budget fails at once, saying so", async () => {
    const { retry, delays } = recordingRetry();
    const t0 = Date.now();
    const err = await rejection(ask([{ kind: "error", status: 429, headers: { "retry-after": "5" } }], { retry, budgets: { totalMs: 1000 } }));
    assert.equal(err.kind, "rate-limit");
    assert.match(err.message, /^rate limited \(429\): .*; gave up: waiting 5 s to retry would pass the 1 s budget \(waited 0(\.\d)? s, 1 attempt\)$/);
    assert.deepEqual(delays, [], "no wait was started");
    assert.equal(fake.requests.length, 1);
    assert.ok(Date.now() - t0 < 1000, "failed before the budget was spent");
  });

  it("a hang (no bytes at all): the idle budget cuts each attempt; the message names it and the time waited", async () => {
    const { retry } = recordingRetry(2);
    const events: SummaryProgress[] = [];
    const err = await rejection(ask([{ kind: "hang" }, { kind: "hang" }], { retry, budgets: { idleMs: 200 }, progressIntervalMs: 50, onProgress: (p) => events.push(p) }));
    assert.ok(err instanceof BudgetError && err.budget === "idle", err.message);
    assert.match(err.message, /^no data from http:\/\/127\.0\.0\.1:\d+ for 0\.2 s \(the idle budget\) \(after 2 attempts, waited 0\.\d s\)$/);
    assert.equal(fake.requests.length, 2);
    const waits = events.filter((p): p is Extract<SummaryProgress, { type: "wait" }> => p.type === "wait");
    assert.ok(waits.length >= 2, "wait events while hanging");
    assert.ok(waits.every((w) => w.budgetMs === 300_000));
    assert.ok(waits[waits.length - 1].waitedMs > waits[0].waitedMs);
  });

  it("a trickle (a byte now and then, never done): the per-attempt budget cuts it although it is never idle", async () => {
    const { retry } = recordingRetry(1);
    let chars = 0;
    const err = await rejection(
      ask([{ kind: "trickle", everyMs: 40 }], { retry, budgets: { idleMs: 250, attemptMs: 600 }, onProgress: (p) => void (p.type === "text" && (chars = p.chars)) }),
    );
    assert.ok(err instanceof BudgetError && err.budget === "attempt", err.message);
    assert.match(err.message, /within the 0\.6 s per-attempt budget \(waited 0\.\d s, 1 attempt\)$/);
    assert.ok(chars >= 3, `text kept arriving (${chars} chars)`);
  });

  it("the overall deadline covers every attempt: a hang with generous idle and attempt budgets ends at the total", async () => {
    const t0 = Date.now();
    const err = await rejection(ask([{ kind: "hang" }], { retry: recordingRetry().retry, budgets: { idleMs: 60_000, attemptMs: 60_000, totalMs: 400 } }));
    assert.ok(err instanceof BudgetError && err.budget === "total", err.message);
    assert.match(err.message, /^no answer within the 0\.4 s budget \(waited 0\.\d s, 1 attempt\)$/);
    assert.equal(fake.requests.length, 1, "no retry after the overall budget is spent");
    assert.ok(Date.now() - t0 < 5000);
  });

  it("the overall deadline across retries: idle cuts, then the total ends the last attempt early", async () => {
    const hang: FakeReply = { kind: "hang" };
    const err = await rejection(ask([hang, hang, hang, hang, hang], { retry: recordingRetry(10).retry, budgets: { idleMs: 250, totalMs: 650 } }));
    assert.ok(err instanceof BudgetError && err.budget === "total", err.message);
    assert.match(err.message, /^no answer within the 0\.7 s budget \(after \d attempts, waited \d+(\.\d)? s\)$/);
    assert.ok(fake.requests.length >= 2 && fake.requests.length <= 3, `${fake.requests.length} requests`);
  });

  it("an empty summary (no text block), streamed or not: bad-response, not retried", async () => {
    for (const stream of [true, false]) {
      const err = await rejection(ask([{ kind: "no-text" }], { retry: recordingRetry().retry, stream }));
      assert.equal(err.kind, "bad-response", err.message);
      assert.match(err.message, /the model returned no text/);
      assert.equal(fake.requests.length, 1);
      await fake.close();
    }
  });

  it("garbage instead of an event stream, or a broken JSON event: bad-response, not retried", async () => {
    let err = await rejection(ask([{ kind: "garbage" }, { kind: "garbage" }], { retry: recordingRetry(2).retry }));
    assert.equal(err.kind, "bad-response", err.message);
    assert.match(err.message, /was not a Messages API stream/);
    assert.equal(fake.requests.length, 1);
    await fake.close();
    err = await rejection(ask([{ kind: "malformed" }, { kind: "malformed" }], { retry: recordingRetry(2).retry }));
    assert.equal(err.kind, "bad-response", err.message);
    assert.match(err.message, /not valid JSON/);
  });

  it("a budget run out during compaction writes nothing", async () => {
    fake = await FakeAnthropic.start([{ kind: "trickle", everyMs: 30 }], { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const err = await rejection(compactSession(session, { settings: SMALL, llm: { apiKey: KEY, baseURL: fake.url, retry: { maxAttempts: 1 }, budgets: { idleMs: 200, attemptMs: 300 } } }));
    assert.equal(err.kind, "timeout");
    expectUnchanged(file, before);
  });

  it("a budget run out with fallback allowed: a truncation is written instead", async () => {
    fake = await FakeAnthropic.start([{ kind: "hang" }], { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const out = await compactSession(session, { settings: SMALL, allowFallback: true, llm: { apiKey: KEY, baseURL: fake.url, budgets: { totalMs: 300 } } });
    assert.equal(out.strategy, "truncate");
    assert.match(String(out.fallbackReason), /no answer within the 0\.3 s budget/);
    await expectOneCompactionLine(file, before, "TRUNCATED");
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2026, 0, 1, 0, 0, 0);
  it("reads a fetch Headers and a plain record alike", () => {
    assert.equal(parseRetryAfter(new Headers({ "retry-after": "3" }), now), 3000);
    assert.equal(parseRetryAfter({ "Retry-After": "2.5" }, now), 2500);
    assert.equal(parseRetryAfter({ "retry-after-ms": "120", "retry-after": "9" }, now), 120);
  });
  it("an HTTP date, a past date (0) and nonsense (undefined)", () => {
    assert.equal(parseRetryAfter(new Headers({ "retry-after": new Date(now + 7000).toUTCString() }), now), 7000);
    assert.equal(parseRetryAfter(new Headers({ "retry-after": new Date(now - 7000).toUTCString() }), now), 0);
    assert.equal(parseRetryAfter(new Headers({ "retry-after": "soon" }), now), undefined);
    assert.equal(parseRetryAfter(new Headers({ "retry-after": "-3" }), now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});

describe("summaryStatus (the extension's progress notification text)", () => {
  it("says what is happening and how long it has waited of the budget", () => {
    const status = summaryStatus();
    assert.equal(status({ type: "request", part: "history", attempt: 1, model: "m" }), "waiting for the summary");
    assert.equal(status({ type: "wait", part: "history", attempt: 1, waitedMs: 12_300, budgetMs: 300_000 }), "waiting for the summary · waited 12 s of 300 s");
    assert.equal(
      status({ type: "retry", part: "history", attempt: 1, delayMs: 3000, reason: "rate limited (429): slow down", waitedMs: 14_000, budgetMs: 300_000 }),
      "retrying in 3 s: rate limited (429): slow down · waited 14 s of 300 s",
    );
    status({ type: "text", part: "history", chars: 1200 });
    assert.equal(status({ type: "text", part: "turn-prefix", chars: 300 }), "summarizing… 1,500 characters · waited 14 s of 300 s");
    assert.equal(status({ type: "warning", part: "history", message: "The model is deprecated" }), undefined, "warnings are for the log");
  });
});
