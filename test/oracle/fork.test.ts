import { strict as assert } from "node:assert";
import { copyFileSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { branchSession, branchSummaryFromId } from "../../src/core/formats/pi/compaction/branch-summary";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { forkSession } from "../../src/core/formats/pi/store/fork";
import { Session } from "../../src/core/formats/pi/pi-session";
import { tempDir } from "../helpers/session-builder";
import { keepForLater, piOpen, SEEDS, seeds } from "./oracle-files";
import { loadPi, type Pi, type PiEntry } from "./pi";
import { randomSession, rng } from "./random-session";

type Obj = Record<string, unknown>;

function readLines(file: string): Obj[] {
  return readFileSync(file, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Obj);
}

/** JSON as written: keys with undefined values are not in the file. */
function asWritten(e: object): Obj {
  return JSON.parse(JSON.stringify(e)) as Obj;
}

interface ForkCounts {
  forks: number;
  contexts: number;
  /** Forks where pi's own fork leaves an entry pointing at a dropped label. */
  dangling: number;
  labels: number;
}

/**
 * One fork at `at`: our file against pi's createBranchedSession (same entries, same
 * labels with the times they were set), and the context of every entry of our fork,
 * read by pi and by us, against pi's context for that entry in the source.
 */
async function compareFork(pi: Pi, source: string, original: ReturnType<typeof piOpen>, session: Session, at: string, counts: ForkCounts): Promise<void> {
  const ours = forkSession(session, at, { dir: tempDir() });
  const lines = readLines(ours.path);
  const [header, ...written] = lines;

  const theirs = piOpen(pi, source);
  theirs.sm.createBranchedSession(at);
  const piHeader = theirs.sm.getHeader() as Obj;
  const piEntries = theirs.sm.getEntries().map(asWritten);
  assert.equal(header.version, piHeader.version);
  assert.equal(header.cwd, piHeader.cwd);
  assert.equal(header.parentSession, resolve(session.path), "parentSession: the source, absolute");
  assert.equal(written.length, piEntries.length, "entry count");

  const piIds = new Set(piEntries.map((e) => e.id));
  const pathIds = piEntries.filter((e) => e.type !== "label").map((e) => e.id);
  let dangling = false;
  for (let k = 0; k < written.length; k++) {
    const w = written[k];
    const p = piEntries[k];
    if (p.type === "label") {
      // New label entries, ids of their own: what they say and when it was set must match.
      assert.deepStrictEqual([w.type, w.targetId, w.label, w.timestamp], [p.type, p.targetId, p.label, p.timestamp], `label entry ${k}`);
      counts.labels++;
      continue;
    }
    const expected = { ...p };
    if (p.parentId !== null && !piIds.has(p.parentId)) {
      // On purpose: pi leaves the entry pointing at the label it dropped, so pi reads its
      // own fork from here on only; we re-parent it onto the entry before.
      dangling = true;
      const before = pathIds.indexOf(p.id) - 1;
      expected.parentId = before >= 0 ? pathIds[before] : null;
    }
    const sourcePath = original.sm.getBranch(at).map((e) => e.id);
    const keptAt = typeof p.firstKeptEntryId === "string" ? sourcePath.indexOf(p.firstKeptEntryId) : -1;
    if (p.type === "compaction" && keptAt >= 0 && original.byId.get(sourcePath[keptAt])?.type === "label") {
      // On purpose, likewise: a compaction that kept from a label on the path (dropped
      // from the fork) keeps from the entry after it.
      expected.firstKeptEntryId = sourcePath.slice(keptAt).find((id) => original.byId.get(id)?.type !== "label");
    }
    assert.deepStrictEqual(w, expected, `entry ${k} of the fork`);
  }
  if (dangling) counts.dangling++;

  // Every entry of our fork, as pi reads it and as we do, has the source's context there.
  const fork = piOpen(pi, ours.path);
  const ourFork = await Session.load(ours.path);
  const leaves: Array<string | undefined> = [...fork.entries.filter((e) => e.type !== "label").map((e) => e.id), undefined];
  for (const id of leaves) {
    const want = pi.convertToLlm(pi.buildSessionContext(original.entries, id ?? at, original.byId).messages);
    const piReads = id === undefined ? fork.sm.buildSessionContext() : pi.buildSessionContext(fork.entries, id, fork.byId);
    assert.deepStrictEqual(pi.convertToLlm(piReads.messages), want, `pi reading our fork, leaf ${id ?? "(default)"}`);
    assert.deepStrictEqual(buildContext(ourFork, id).parts.map((p) => p.llm), want, `us reading our fork, leaf ${id ?? "(default)"}`);
    counts.contexts++;
  }
  counts.forks++;
}

describe("pi as the oracle: fork and branch summary", function () {
  this.timeout(60_000 + SEEDS * 10_000);
  let pi: Pi;
  before(async () => {
    pi = await loadPi();
  });

  it("fork at entries of seeded sessions: pi's createBranchedSession entries and label times; the context at every entry of the fork is the source's (re-parenting over dropped labels on purpose)", async () => {
    const t0 = Date.now();
    const counts: ForkCounts = { forks: 0, contexts: 0, dangling: 0, labels: 0 };
    for (const seed of seeds()) {
      const s = randomSession(pi, tempDir(), seed, 60 + (seed % 5) * 30);
      const session = await Session.load(s.file);
      const original = piOpen(pi, s.file);
      const r = rng(seed ^ 0xf0f0);
      for (const e of original.entries) {
        // A sample of entries, label targets more often.
        if (r() > (e.type === "label" ? 0.4 : 0.06)) continue;
        const at = e.type === "label" ? String(e.targetId) : e.id;
        try {
          await compareFork(pi, s.file, original, session, at, counts);
        } catch (err) {
          const a = err as assert.AssertionError;
          const where = `seed ${seed}, fork at ${at} (kept at ${keepForLater(s.file, `fork-seed-${seed}`)})`;
          if (!(err instanceof assert.AssertionError)) throw new Error(`${where}: ${(err as Error).stack}`);
          throw new assert.AssertionError({ message: `${where}: ${a.message}`, actual: a.actual, expected: a.expected, operator: a.operator });
        }
      }
    }
    console.log(`      ${counts.forks} forks (${counts.dangling} where pi's own fork leaves a dangling parent), ${counts.labels} labels, ${counts.contexts} fork contexts agree with pi in ${Date.now() - t0} ms`);
    assert.ok(counts.forks > 100 && counts.dangling > 5 && counts.labels > 20, "forks across labels are covered");
  });

  it("branch summary: parentId and fromId as pi's branchWithSummary writes them (the target; \"root\" when there is none)", async () => {
    const s = randomSession(pi, tempDir(), 7, 80);
    const { entries } = piOpen(pi, s.file);
    const r = rng(77);
    let n = 0;
    for (const target of entries) {
      if (r() > 0.2) continue;
      const dir = tempDir();
      const mine = join(dir, "ours.jsonl");
      copyFileSync(s.file, mine);
      const session = await Session.load(mine);
      if (session.metas[session.metas.length - 1].id === target.id) continue;
      const out = await branchSession(session, { targetId: target.id });
      const theirs = piOpen(pi, s.file);
      const piId = theirs.sm.branchWithSummary(target.id, "");
      const piEntry = asWritten(theirs.sm.getEntries().find((e: PiEntry) => e.id === piId) as object);
      const ourLine = readLines(mine).pop() as Obj;
      assert.equal(ourLine.id, out.entry.id);
      const strip = (o: Obj) => ({ ...o, id: "-", timestamp: "-" });
      assert.deepStrictEqual(strip(ourLine), strip(piEntry), `branch to ${target.id}`);
      n++;
    }
    assert.ok(n > 5);
    const root = piOpen(pi, s.file).sm;
    const rootId = root.branchWithSummary(null, "back to the start");
    assert.equal(branchSummaryFromId(null), root.getEntries().find((e) => e.id === rootId)?.fromId);
  });
});
