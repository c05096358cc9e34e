import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { branchSession } from "../../src/core/formats/pi/compaction/branch-summary";
import { SummaryError } from "../../src/core/compaction/llm-errors";
import { DEFAULT_SUMMARY_MODEL } from "../../src/core/compaction/summary-model";
import { BRANCH_SUMMARY_PREFIX, BRANCH_SUMMARY_SUFFIX } from "../../src/core/formats/pi/context/convert";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { Session } from "../../src/core/formats/pi/pi-session";
import { refContext, refLoad } from "../helpers/reference-context";
import { writeSession } from "../helpers/session-builder";
import { FakeAnthropic } from "./fake-anthropic";
import { branchedLines, expectUnchanged, FAST_RETRY } from "./helpers";

/** The branched session of branchedLines, written to a temp file. */
function branchedSession(): string {
  return writeSession(branchedLines());
}

// The plan (nothing written) is tested in test/formats/pi/branch-summary.test.ts.
describe("branch summary (pi's /tree)", () => {
  it("without --summarize: an empty branch_summary at the target, so the leaf move lasts", async () => {
    const file = branchedSession();
    const before = readFileSync(file);
    const session = await Session.load(file);
    const out = await branchSession(session, { targetId: "a1" });
    const after = readFileSync(file);
    assert.ok(after.subarray(0, before.length).equals(before));
    const line = JSON.parse(after.subarray(before.length).toString("utf8"));
    assert.deepEqual(Object.keys(line), ["type", "id", "parentId", "timestamp", "fromId", "summary"]);
    assert.equal(line.parentId, "a1");
    assert.equal(line.fromId, "a1", "pi's branchWithSummary writes the target as fromId, not the leaf left");
    assert.equal(line.summary, "");
    assert.equal(out.summarized, false);
    // The new last line is the leaf: its context is the target's, nothing added.
    const reread = await Session.load(file);
    assert.deepEqual(buildContext(reread).parts.map((p) => p.entryId), ["u1", "a1"]);
  });

  it("--summarize: the LLM summary (2048 max tokens) reads back as a branch summary message after the target", async () => {
    const fake = await FakeAnthropic.start([{ kind: "message", text: "BRANCH GIST" }]);
    try {
      const file = branchedSession();
      const session = await Session.load(file);
      const out = await branchSession(session, { targetId: "a1", summarize: true, llm: { apiKey: "k", baseURL: fake.url, retry: FAST_RETRY } });
      assert.equal(fake.requests[0].body.max_tokens, 2048);
      assert.ok(fake.requests[0].prompt.includes('[Assistant tool calls]: edit(path="/src/x.ts"'));
      assert.deepEqual(out.entry.details, { readFiles: [], modifiedFiles: ["/src/x.ts"] });
      const reread = await Session.load(file);
      const ctx = buildContext(reread);
      assert.deepEqual(ctx.parts.map((p) => p.kind), ["message", "message", "branch-summary"]);
      const text = (ctx.parts[2].llm.content as Array<{ text: string }>)[0].text;
      assert.ok(text.startsWith(BRANCH_SUMMARY_PREFIX) && text.endsWith(BRANCH_SUMMARY_SUFFIX) && text.includes("BRANCH GIST") && text.includes("<modified-files>\n/src/x.ts"));
      assert.deepEqual(refContext(refLoad(file)).messages, ctx.parts.map((p) => p.llm));
    } finally {
      await fake.close();
    }
  });

  it("--summarize when the session's own model is retired (404): the default model writes it", async () => {
    const fake = await FakeAnthropic.start((req) =>
      req.body.model === "claude-sonnet-4-5" ? { kind: "error", status: 404, type: "not_found_error", message: "model: claude-sonnet-4-5" } : { kind: "message", text: "GIST BY DEFAULT" },
    );
    try {
      const file = branchedSession();
      const session = await Session.load(file);
      const out = await branchSession(session, { targetId: "a1", summarize: true, llm: { apiKey: "k", baseURL: fake.url, retry: FAST_RETRY } });
      assert.equal(out.plan.modelSource, "session");
      assert.deepEqual(fake.requests.map((r) => r.body.model), ["claude-sonnet-4-5", DEFAULT_SUMMARY_MODEL]);
      assert.ok(String(out.entry.summary).includes("GIST BY DEFAULT"));
    } finally {
      await fake.close();
    }
  });

  it("--summarize with a failing API: nothing written", async () => {
    const fake = await FakeAnthropic.start([], { apiKey: "right" });
    try {
      const file = branchedSession();
      const before = readFileSync(file);
      const session = await Session.load(file);
      await assert.rejects(branchSession(session, { targetId: "a1", summarize: true, llm: { apiKey: "wrong", baseURL: fake.url, retry: FAST_RETRY } }), (e: Error) => e instanceof SummaryError && e.kind === "auth");
      expectUnchanged(file, before);
    } finally {
      await fake.close();
    }
  });
});
