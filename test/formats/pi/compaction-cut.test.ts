import { strict as assert } from "node:assert";
import { findCutPoint, isValidCut } from "../../../src/core/formats/pi/compaction/cut-point";
import { NothingToCompactError, planCompaction } from "../../../src/core/formats/pi/compaction/prepare";
import { resolveSummaryModel } from "../../../src/core/compaction/summary-model";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { Session } from "../../../src/core/formats/pi/pi-session";
import { fixture, needFixtures, REAL_SESSIONS } from "../../helpers/fixtures";
import { assistant, entry, header, toolResult, user } from "../../helpers/session-builder";
import { piSession } from "./memory";

// What a compaction would keep and summarize (pi's cut points), planned without writing:
// built sessions in memory, the real ones read from ../shared. Writing a compaction is
// tested in test/compaction/.
describe("pi's compaction cut points and plan", () => {
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

  it("nothing to compact: short session, and a leaf that is a compaction", () => {
    const session = piSession([header(), user("u1", null, "hi"), assistant("a1", "u1", "hello"), toolResult("t1", "a1", "c", "read", "x")]);
    assert.throws(() => planCompaction(session), NothingToCompactError);
    const s2 = piSession([header(), user("u1", null, "hi ".repeat(400)), assistant("a1", "u1", "ok ".repeat(400)), entry("compaction", "c1", "a1", { summary: "s", firstKeptEntryId: "a1", tokensBefore: 5 })]);
    assert.throws(() => planCompaction(s2, { settings: { keepRecentTokens: 10 } }), /compaction already/);
  });
});
