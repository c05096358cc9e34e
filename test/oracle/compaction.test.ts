import { strict as assert } from "node:assert";
import { NothingToCompactError, planCompaction, type CompactionPlan } from "../../src/core/formats/pi/compaction/prepare";
import { Session } from "../../src/core/formats/pi/pi-session";
import { tempDir } from "../helpers/session-builder";
import { keepForLater, piOpen, SEEDS, seeds } from "./oracle-files";
import { loadPi, type Pi, type PiEntry, type PiMessage, type PiPreparation } from "./pi";
import { randomSession } from "./random-session";

/**
 * Our compaction plan (`ase compact --dry-run`) against pi's prepareCompaction for every
 * entry as the leaf: first kept entry, split turn, what is summarized (history and turn
 * prefix), previous summary, tokensBefore and the file lists.
 *
 * Where we differ on purpose, the case is named and our behaviour checked instead:
 * - an empty branch summary (a bare leaf move) is not handed to the summarizer: pi passes
 *   an empty "summary of a branch" message along;
 * - nothing to compact (everything since the boundary is kept) is refused: pi asks the
 *   LLM to summarize zero messages;
 * - a cut that would leave a tool result first, cut off from its call (no valid cut
 *   point since the boundary), is refused: pi writes it.
 */
const SETTINGS = { enabled: true, reserveTokens: 16384 };

function notEmptySummary(m: PiMessage): boolean {
  return !(m.role === "branchSummary" && !m.summary);
}

function firstMessageRole(path: PiEntry[], firstKeptId: string): string | undefined {
  const k = path.findIndex((e) => e.id === firstKeptId);
  const m = path.slice(k).find((e) => e.type === "message") as { message?: { role?: string } } | undefined;
  return m?.message?.role;
}

type Outcome = "planned" | "leaf is a compaction" | "nothing to compact" | "orphaned tool result";

function compareLeaf(pi: Pi, session: Session, path: PiEntry[], keepRecentTokens: number): Outcome {
  const leafId = path[path.length - 1].id;
  const prep: PiPreparation | undefined = pi.prepareCompaction(path, { ...SETTINGS, keepRecentTokens });
  let plan: CompactionPlan;
  try {
    plan = planCompaction(session, { leafId, settings: { keepRecentTokens } });
  } catch (err) {
    if (!(err instanceof NothingToCompactError)) throw err;
    if (!prep) {
      assert.equal(path[path.length - 1].type, "compaction");
      assert.match(err.message, /leaf is a compaction/);
      return "leaf is a compaction";
    }
    if (/only tool results/.test(err.message)) {
      assert.equal(firstMessageRole(path, prep.firstKeptEntryId), "toolResult", "refused although pi's cut does not orphan a tool result");
      return "orphaned tool result";
    }
    assert.match(err.message, /nothing to compact/);
    assert.deepStrictEqual(prep.messagesToSummarize.filter(notEmptySummary), [], "refused as nothing to compact, but pi has messages to summarize");
    assert.deepStrictEqual(prep.turnPrefixMessages.filter(notEmptySummary), []);
    return "nothing to compact";
  }
  assert.ok(prep, "pi refuses (its leaf is a compaction) but we planned");
  assert.equal(plan.firstKeptEntryId, prep.firstKeptEntryId, "first kept entry");
  assert.equal(plan.isSplitTurn, prep.isSplitTurn, "split turn");
  assert.deepStrictEqual(plan.toSummarize.map((m) => m.agent), prep.messagesToSummarize.filter(notEmptySummary), "messages to summarize");
  assert.deepStrictEqual(plan.turnPrefix.map((m) => m.agent), prep.turnPrefixMessages.filter(notEmptySummary), "turn prefix");
  assert.equal(plan.previousSummary, prep.previousSummary, "previous summary");
  assert.equal(plan.tokensBefore, prep.tokensBefore, "tokensBefore");
  const files = pi.computeFileLists(prep.fileOps);
  assert.deepStrictEqual({ readFiles: plan.readFiles, modifiedFiles: plan.modifiedFiles }, files, "file lists");
  return "planned";
}

describe("pi as the oracle: compaction", function () {
  this.timeout(60_000 + SEEDS * 10_000);
  let pi: Pi;
  before(async () => {
    pi = await loadPi();
  });

  it("every entry as the leaf: our plan cuts, summarizes and counts as pi's prepareCompaction does (differences on purpose named)", async () => {
    const t0 = Date.now();
    const outcomes = new Map<Outcome, number>();
    let repeated = 0;
    let splits = 0;
    let emptySummaries = 0;
    for (const seed of seeds()) {
      const s = randomSession(pi, tempDir(), seed, 60 + (seed % 5) * 30);
      const session = await Session.load(s.file);
      const { sm, entries } = piOpen(pi, s.file);
      for (const keep of [s.keepRecentTokens, 20_000]) {
        for (const e of entries) {
          const path = sm.getBranch(e.id);
          let outcome: Outcome;
          try {
            outcome = compareLeaf(pi, session, path, keep);
          } catch (err) {
            const a = err as assert.AssertionError;
            const where = `seed ${seed}, keepRecentTokens ${keep}, leaf ${e.id} (kept at ${keepForLater(s.file, `compaction-seed-${seed}`)})`;
            if (!(err instanceof assert.AssertionError)) throw new Error(`${where}: ${(err as Error).stack}`);
            throw new assert.AssertionError({ message: `${where}: ${a.message}`, actual: a.actual, expected: a.expected, operator: a.operator });
          }
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          const prep = pi.prepareCompaction(path, { ...SETTINGS, keepRecentTokens: keep });
          if (outcome === "planned" && prep?.messagesToSummarize.some((m) => !notEmptySummary(m))) emptySummaries++;
          if (outcome === "planned" && path.slice(0, -1).some((p) => p.type === "compaction")) repeated++;
          if (outcome === "planned" && prep?.isSplitTurn) splits++;
        }
      }
    }
    console.log(`      ${[...outcomes].map(([k, v]) => `${v} ${k}`).join(", ")} (${repeated} after an earlier compaction, ${splits} split turns, ${emptySummaries} where pi would summarize an empty branch summary) in ${Date.now() - t0} ms`);
    for (const o of ["planned", "leaf is a compaction", "nothing to compact", "orphaned tool result"] as const) assert.ok(outcomes.get(o), `no leaf ended as "${o}"`);
    assert.ok(repeated > 50 && splits > 50 && emptySummaries > 5, "repeated compactions, split turns and empty branch summaries are covered");
  });
});
