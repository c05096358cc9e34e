import { strict as assert } from "node:assert";
import { SummaryError } from "../../../src/core/compaction/llm-errors";
import { SYSTEM_PROMPT } from "../../../src/core/compaction/prompts";
import { DEFAULT_SUMMARY_MODEL } from "../../../src/core/compaction/summary-model";
import { seed000Format } from "../../../src/core/formats/seed-000/format";
import type { Seed000Message } from "../../../src/core/formats/seed-000/messages";
import { applyStrategy, COMPRESS_PREFIX, planStrategy } from "../../../src/core/formats/seed-000/strategies";
import { SEED000_SUMMARY_MAX_TOKENS, summarizeMessages, TOOL_RESULT_MAX_CHARS } from "../../../src/core/formats/seed-000/summarize";
import { FakeAnthropic, type FakeReply } from "../../compaction/fake-anthropic";
import { FAST_RETRY } from "../../compaction/helpers";
import { assistant, memory, toolCall, toolResult, user } from "./helpers";

const KEY = "sk-test-key";

function sample(): Seed000Message[] {
  const s = memory([
    user("u1", null, "Why does test_5 fail?"),
    toolCall("c1", "u1", "run_test", { name: "test_5" }),
    toolResult("r1", "c1", `FAILED test_5\n${"trace ".repeat(500)}`),
    assistant("a1", "r1", "It reads .length of undefined."),
  ]);
  return seed000Format.context(s, 3).messages.map((m) => m.message as Seed000Message);
}

describe("seed-000 summarizeMessages through the real SDK against a fake Messages API", () => {
  let fake: FakeAnthropic;
  afterEach(async () => fake?.close());

  const llm = (extra: Record<string, unknown> = {}) => ({ apiKey: KEY, baseURL: fake.url, retry: FAST_RETRY, budgets: { idleMs: 5000 }, ...extra });

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

  it("success: our prompt with the transcript, the compaction's system prompt, a streamed answer", async () => {
    fake = await FakeAnthropic.start([{ kind: "message", text: "The user chases test_5.", chunks: 3 }], { apiKey: KEY });
    const progress: string[] = [];
    const res = await summarizeMessages(sample(), llm({ model: "claude-haiku-4-5" }), { onProgress: (p) => progress.push(p.type) });
    assert.equal(res.text, "The user chases test_5.");
    assert.equal(res.attempts, 1);
    assert.equal(fake.requests.length, 1);
    const req = fake.requests[0];
    assert.equal(req.body.model, "claude-haiku-4-5");
    assert.equal(req.body.max_tokens, SEED000_SUMMARY_MAX_TOKENS);
    assert.equal(req.body.stream, true);
    assert.equal(req.body.system, SYSTEM_PROMPT);
    assert.ok(req.prompt.startsWith("<conversation>\n[User]: Why does test_5 fail?\n\n[Assistant tool call]: run_test({\"name\":\"test_5\"})\n\n[Tool result]: FAILED test_5\n"), req.prompt.slice(0, 200));
    assert.ok(req.prompt.includes(`[... ${"FAILED test_5\n".length + 3000 - TOOL_RESULT_MAX_CHARS} more characters]`), "a long tool result is cut");
    assert.ok(req.prompt.includes("[Assistant]: It reads .length of undefined.\n</conversation>"));
    assert.ok(progress.includes("text") && progress.includes("done"));
  });

  it("the summary feeds compress: the prefix, then the kept messages", async () => {
    fake = await FakeAnthropic.start([{ kind: "message", text: "S." }], { apiKey: KEY });
    const messages = sample();
    const plan = planStrategy("compress", messages, { keepRecent: 1, maxTokens: 0 });
    const res = await summarizeMessages(plan.summarized.map((i) => messages[i]), llm({ stream: false }));
    assert.equal(fake.requests[0].body.stream, undefined);
    assert.ok(!fake.requests[0].prompt.includes("It reads .length"), "the kept message is not summarized");
    assert.deepEqual(applyStrategy(plan, messages, res.text), [{ role: "user", content: `${COMPRESS_PREFIX}S.` }, messages[3]]);
  });

  it("the session's Claude model when none is asked for, and the default once if it is gone (404)", async () => {
    const replies: FakeReply[] = [{ kind: "error", status: 404, type: "not_found_error", message: "model: claude-retired" }, { kind: "message", text: "ok" }];
    fake = await FakeAnthropic.start(replies, { apiKey: KEY });
    const res = await summarizeMessages(sample(), llm(), { sessionModel: "claude-retired" });
    assert.deepEqual(fake.requests.map((r) => r.body.model), ["claude-retired", DEFAULT_SUMMARY_MODEL]);
    assert.equal(res.model, DEFAULT_SUMMARY_MODEL);
  });

  it("a model that is not Claude's is not sent to the Anthropic API: the default is", async () => {
    fake = await FakeAnthropic.start([{ kind: "message", text: "ok" }], { apiKey: KEY });
    await summarizeMessages(sample(), llm(), { sessionModel: "gpt-5" });
    assert.equal(fake.requests[0].body.model, DEFAULT_SUMMARY_MODEL);
  });

  it("a wrong key ends at once with a clear auth error, no retry", async () => {
    fake = await FakeAnthropic.start([], { apiKey: "another-key" });
    const err = await failsWith(summarizeMessages(sample(), llm()), "auth");
    assert.equal(fake.requests.length, 1);
    assert.equal(err.status, 401);
    assert.ok(!err.message.includes(KEY), "the key is never quoted");
  });

  it("a server that keeps failing: retried, then an error that says how many attempts", async () => {
    fake = await FakeAnthropic.start([], { apiKey: KEY, fallback: { kind: "error", status: 529, type: "overloaded_error", message: "Overloaded" } });
    const err = await failsWith(summarizeMessages(sample(), llm()), "overloaded");
    assert.equal(fake.requests.length, 3);
    assert.match(err.message, /after 3 attempts/);
  });

  it("an empty answer is a failure, not an empty summary", async () => {
    fake = await FakeAnthropic.start([{ kind: "no-text" }], { apiKey: KEY });
    await failsWith(summarizeMessages(sample(), llm({ retry: { ...FAST_RETRY, maxAttempts: 1 } })), "bad-response");
  });

  it("cancelled by the caller's signal while the API hangs", async () => {
    fake = await FakeAnthropic.start([{ kind: "hang" }], { apiKey: KEY });
    const ctl = new AbortController();
    const p = summarizeMessages(sample(), llm(), { signal: ctl.signal, onProgress: (e) => e.type === "request" && setImmediate(() => ctl.abort()) });
    await failsWith(p, "cancelled");
  });

  it("nothing to summarize is refused before any call", async () => {
    fake = await FakeAnthropic.start([], { apiKey: KEY });
    await assert.rejects(summarizeMessages([], llm()), /nothing to summarize/);
    assert.equal(fake.requests.length, 0);
  });
});
