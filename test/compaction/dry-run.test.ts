import { strict as assert } from "node:assert";
import { appendFileSync, readFileSync } from "node:fs";
import { compactSession } from "../../src/core/formats/pi/compaction/compact";
import { findCutPoint, isValidCut } from "../../src/core/formats/pi/compaction/cut-point";
import { NothingToCompactError, planCompaction } from "../../src/core/formats/pi/compaction/prepare";
import { resolveSummaryModel } from "../../src/core/compaction/summary-model";
import { TRUNCATION_MARKER } from "../../src/core/formats/pi/compaction/truncate";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { OldVersionError } from "../../src/core/formats/pi/store/append";
import { forkSession } from "../../src/core/formats/pi/store/fork";
import { Session } from "../../src/core/formats/pi/pi-session";
import { formatOf } from "../../src/core/formats/registry";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";
import { assistant, entry, header, tempDir, toolResult, user, writeSession } from "../helpers/session-builder";
import { FakeAnthropic } from "./fake-anthropic";
import { expectOneCompactionLine, expectUnchanged, FAST_RETRY, SMALL, turnsSession } from "./helpers";

describe("compaction dry run (no network)", () => {
  it("cut rules: never at a tool result; non-message entries before the cut are kept; split turns", () => {
    const m = (role: string, estimate: number) => ({ type: "message", role, estimate });
    const entries = [m("user", 10), m("assistant", 10), m("toolResult", 500), { type: "model_change", estimate: 0 }, m("assistant", 10), m("toolResult", 100), m("user", 10), m("assistant", 50)];
    // 50 + 10 + 100 reaches 120 at the tool result (5): the next valid cut is the user at 6.
    assert.deepEqual(findCutPoint(entries, 0, entries.length, 120), { firstKept: 6, turnStart: -1, isSplitTurn: false });
    // Reaching the budget at the big tool result (2): the next cut point is the assistant
    // at 4, and the model change just before it goes with the kept part.
    const c = findCutPoint(entries, 0, entries.length, 600);
    assert.deepEqual(c, { firstKept: 3, turnStart: 0, isSplitTurn: true });
    // Everything fits: keep from the first valid cut point.
    assert.equal(findCutPoint(entries, 0, entries.length, 100_000).firstKept, 0);
  });

  for (const name of REAL_SESSIONS) {
    it(`${name}: every leaf gives a valid plan (cut on the path, never at a tool result, kept >= keepRecentTokens when long enough)`, async function () {
      needFixtures(this);
      const session = await Session.load(fixture(`${name}.jsonl`));
      let plans = 0;
      let splits = 0;
      let long = 0;
      let reached = 0;
      for (let i = 0; i < session.metas.length; i += 7) {
        let plan;
        try {
          plan = planCompaction(session, { leafId: session.metas[i].id });
        } catch (err) {
          assert.ok(err instanceof NothingToCompactError, String(err));
          continue;
        }
        plans++;
        const path = session.tree.path(i).map((k) => session.metas[k]);
        const at = path.findIndex((x) => x.id === plan.firstKeptEntryId);
        assert.ok(at >= 0, "cut on the path");
        // pi's boundary: the previous compaction's first kept entry when it is on the path
        // (what it kept was never summarized), else just after that compaction.
        const prev = path.map((x) => x.type).lastIndexOf("compaction");
        const keptBefore = prev >= 0 ? path.findIndex((x) => x.id === path[prev].firstKeptEntryId) : -1;
        const boundary = keptBefore >= 0 ? keptBefore : prev + 1;
        assert.ok(at >= boundary, "cut at or after the boundary");
        const firstMsg = path.slice(at).find((x) => x.type === "message");
        assert.notEqual(firstMsg?.role, "toolResult");
        if (plan.isSplitTurn) {
          splits++;
          assert.ok(plan.turnPrefix.length > 0);
          assert.ok(["user", "bashExecution"].includes(String(session.meta(plan.turnStartEntryId as string)?.role)) || session.meta(plan.turnStartEntryId as string)?.type !== "message");
        }
        // pi's guarantee: cutting at the previous valid point would keep at least
        // keepRecentTokens (so the cut is as late as the budget allows). The kept part
        // itself reaches the budget unless the budget ran out on a tool result, which
        // has to go with its call to the summary.
        const cutMsg = path.findIndex((x, k) => k >= at && x.type === "message");
        const tokensFrom = (k: number) => path.slice(k).filter((x) => x.type === "message").reduce((n, x) => n + x.estimate, 0);
        let prevCut = -1;
        for (let k = cutMsg - 1; k >= boundary; k--) if (isValidCut(path[k])) { prevCut = k; break; }
        if (prevCut >= 0) assert.ok(tokensFrom(prevCut) >= plan.settings.keepRecentTokens, `cut too late at leaf ${session.metas[i].id}`);
        if (tokensFrom(boundary) >= plan.settings.keepRecentTokens) {
          long++;
          if (plan.keptTokens >= plan.settings.keepRecentTokens) reached++;
          else assert.ok(path.slice(prevCut, cutMsg).some((x) => x.role === "toolResult"), `kept ${plan.keptTokens} at leaf ${session.metas[i].id}`);
        }
      }
      assert.ok(plans > 20, `${plans} plans`);
      assert.ok(splits > 0, "some cuts split a turn");
      assert.ok(reached > long / 2, `kept >= keepRecentTokens at ${reached} of ${long} long leaves`);
    });
  }

  it("before-compaction: rolling update from the last compaction, cumulative files, session model", async function () {
    needFixtures(this);
    const session = await Session.load(fixture("before-compaction.jsonl"));
    const plan = planCompaction(session);
    const compactions = session.metas.filter((m) => m.type === "compaction");
    assert.equal(plan.previousCompactionId, compactions[compactions.length - 1].id);
    assert.ok(plan.previousSummary && plan.previousSummary.length > 100);
    const prevDetails = (session.entry(plan.previousCompactionId as string) as { details?: { modifiedFiles?: string[] } }).details;
    for (const f of prevDetails?.modifiedFiles ?? []) assert.ok(plan.modifiedFiles.includes(f), `carries ${f}`);
    assert.equal(plan.tokensBefore > 100_000, true);
    assert.deepEqual(resolveSummaryModel(buildContext(session).model), { model: plan.model, source: "session" });
    assert.ok(plan.keptTokens >= plan.settings.keepRecentTokens * 0.9);
  });

  it("old versions are refused before any work, with a pointer to ase fork", async function () {
    needFixtures(this);
    const file = fixture("large-session.jsonl");
    const before = readFileSync(file);
    const session = await Session.load(file);
    await assert.rejects(compactSession(session, { strategy: "truncate" }), (e: Error) => e instanceof OldVersionError && /ase fork/.test(e.message));
    expectUnchanged(file, before);
  });

  for (const name of REAL_SESSIONS) {
    it(`${name} forked to v3 and compacted reads back as pi's rules say (summary, then kept from firstKeptEntryId)`, async function () {
      needFixtures(this);
      const src = await Session.load(fixture(`${name}.jsonl`));
      const forked = forkSession(src, src.metas[formatOf(src).defaultLeaf(src)].id, { dir: tempDir() });
      const before = readFileSync(forked.path);
      const fake = await FakeAnthropic.start((req) => ({ kind: "message", text: req.body.max_tokens === 8192 ? "REAL PREFIX" : "REAL HISTORY" }));
      try {
        const session = await Session.load(forked.path);
        const out = await compactSession(session, { llm: { apiKey: "k", baseURL: fake.url, retry: FAST_RETRY } });
        const e = await expectOneCompactionLine(forked.path, before, "REAL HISTORY");
        assert.equal(e.tokensBefore, out.plan.tokensBefore);
        if (out.plan.previousSummary) assert.ok(fake.requests.some((r) => r.prompt.includes("<previous-summary>")));
        assert.ok(out.tokensAfter < out.tokensBefore / 2);
      } finally {
        await fake.close();
      }
    });
  }

  it("truncate: no LLM, marked as a truncation, keeps the previous summary, reads back", async () => {
    const file = turnsSession();
    const first = await Session.load(file);
    await compactSession(first, { strategy: "truncate", settings: SMALL });
    const before = readFileSync(file);
    // Grow the session after the compaction, then truncate again: the earlier summary is carried.
    const text = readFileSync(file, "utf8");
    const lastId = JSON.parse(text.trim().split("\n").pop() as string).id;
    const more = [user("u0000009", lastId, "x ".repeat(600)), assistant("a0000009", "u0000009", "y ".repeat(600))].map((l) => JSON.stringify(l)).join("\n");
    appendFileSync(file, `${more}\n`);
    const second = await Session.load(file);
    const plan = planCompaction(second, { strategy: "truncate", settings: { keepRecentTokens: 200, reserveTokens: 2000 } });
    assert.ok(plan.truncateSummary?.startsWith(TRUNCATION_MARKER));
    assert.ok(plan.truncateSummary?.includes("from the previous compaction"));
    const grown = readFileSync(file);
    await compactSession(second, { strategy: "truncate", settings: { keepRecentTokens: 200, reserveTokens: 2000 } });
    await expectOneCompactionLine(file, grown, TRUNCATION_MARKER);
    assert.ok(before.length < grown.length);
  });

  it("smart: tool calls, errors and long messages go verbatim into the summary; the LLM sees placeholders", async () => {
    const fake = await FakeAnthropic.start([{ kind: "message", text: "SMART SUMMARY" }]);
    try {
      const file = turnsSession();
      const before = readFileSync(file);
      const session = await Session.load(file);
      const plan = planCompaction(session, { strategy: "smart", settings: SMALL });
      const reasons = plan.smart?.items.map((i) => i.reason) ?? [];
      assert.ok(reasons.includes("tool-call") && reasons.includes("error"), reasons.join(","));
      await compactSession(session, { strategy: "smart", settings: SMALL, llm: { apiKey: "k", baseURL: fake.url, retry: FAST_RETRY } });
      const e = await expectOneCompactionLine(file, before, "SMART SUMMARY");
      const s = String(e.summary);
      assert.ok(s.includes("<kept-verbatim>") && s.includes('edit(path="/src/b.ts"') && s.includes("Error: oldText not found"));
      assert.ok(s.indexOf("</kept-verbatim>") < s.indexOf("<read-files>"));
      const prompt = fake.requests[0].prompt;
      assert.ok(prompt.includes("kept verbatim as #1"));
      assert.ok(!prompt.includes("Error: oldText not found"));
    } finally {
      await fake.close();
    }
  });

  it("nothing to compact: short session, and a leaf that is a compaction", async () => {
    const file = writeSession([header(), user("u1", null, "hi"), assistant("a1", "u1", "hello"), toolResult("t1", "a1", "c", "read", "x")]);
    const session = await Session.load(file);
    assert.throws(() => planCompaction(session), NothingToCompactError);
    const file2 = writeSession([header(), user("u1", null, "hi ".repeat(400)), assistant("a1", "u1", "ok ".repeat(400)), entry("compaction", "c1", "a1", { summary: "s", firstKeptEntryId: "a1", tokensBefore: 5 })]);
    const s2 = await Session.load(file2);
    assert.throws(() => planCompaction(s2, { settings: { keepRecentTokens: 10 } }), /compaction already/);
  });
});
