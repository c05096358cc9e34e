import { strict as assert } from "node:assert";
import { clawdcodeFormat } from "../../src/core/formats/clawdcode/format";
import { MemorySession } from "../../src/core/session/memory-session";
import { piFormat } from "../../src/core/formats/pi/format";
import type { SessionReader } from "../../src/core/session/session-reader";
import { CostLedger } from "../../src/core/usage/cost-ledger";
import { costFigures } from "../../src/core/usage/cost-words";
import { type SessionCost, sessionCost } from "../../src/core/usage/session-cost";
import * as claw from "../formats/clawdcode/lines";
import { assistant, user } from "../helpers/session-builder";

const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) < 1e-12, `${what}: ${a} != ${b}`);

/** A session that shows the first `shown.n` entries of `full`; raise n to append. */
function growing(full: SessionReader, n: number): { session: SessionReader; shown: { n: number } } {
  const shown = { n };
  return { session: new Proxy(full, { get: (t, k) => (k === "metas" ? t.metas.slice(0, shown.n) : Reflect.get(t, k)) }), shown };
}

/** The ledger's figures and every leaf's branch against one full pass of sessionCost. */
function same(ledger: CostLedger, want: SessionCost, what: string): void {
  const got = ledger.figures();
  const wanted = costFigures(want.total, want.unpricedModels);
  for (const k of ["steps", "recordedSteps", "pricedSteps", "unpricedSteps", "unpricedTokens"] as const) assert.equal(got[k], wanted[k], `${what}: ${k}`);
  for (const k of ["usd", "recordedUsd", "pricedUsd"] as const) close(got[k], wanted[k], `${what}: ${k}`);
  assert.deepEqual(got.unpricedModels, wanted.unpricedModels, `${what}: unpriced models`);
  for (const b of want.byBranch) {
    const g = ledger.branch(b.leaf);
    assert.deepEqual([g.steps, g.unpricedSteps], [b.steps, b.unpricedSteps], `${what}: branch ${b.leafId}`);
    close(g.usd, b.usd, `${what}: branch ${b.leafId}`);
  }
}

describe("cost ledger: a running cost that reads only what was appended", () => {
  it("pi: equals sessionCost at every length, branches, recorded and unpriced steps included", () => {
    const paid = (id: string, parent: string, usd: number) => assistant(id, parent, "ok", { usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: usd } } });
    const records = [
      user("u1", null, "hi"),
      paid("a1", "u1", 0.1),
      user("u2", "a1", "more"),
      assistant("a2", "u2", "priced"),
      user("u3", "a1", "other way"),
      assistant("a3", "u3", "local", { model: "local-llama" }),
      user("u4", "a2", "go on"),
      paid("a4", "u4", 0.2),
    ];
    const pi = (n: number) => new MemorySession(piFormat.id, piFormat.index, records.slice(0, n), "/s/pi.jsonl", 1, 3);
    const full = pi(records.length);
    const g = growing(full, 0);
    const ledger = new CostLedger(g.session, piFormat);
    for (let n = 1; n <= full.metas.length; n++) {
      g.shown.n = n;
      ledger.update();
      // The session as loaded at that length: its tree has only the leaves there were then.
      const then = pi(n);
      same(ledger, sessionCost(then, piFormat), `read on to ${n}`);
      same(new CostLedger(then, piFormat), sessionCost(then, piFormat), `read at once to ${n}`);
    }
  });

  it("a response whose lines straddle an append is one step with its last usage; the total takes the old usage away", () => {
    const ids: Record<string, string> = { "00000000-0000-4000-8000-000000000002": "msg_1", "00000000-0000-4000-8000-000000000003": "msg_1", "00000000-0000-4000-8000-000000000005": "msg_2" };
    const format = { ...clawdcodeFormat, responseId: (s: SessionReader, i: number) => ids[s.metas[i].id] };
    const full = claw.memory([
      claw.user("00000000-0000-4000-8000-000000000001", null, "q"),
      claw.assistant("00000000-0000-4000-8000-000000000002", "00000000-0000-4000-8000-000000000001", "part 1", { input_tokens: 4000, output_tokens: 10 }, "claude-opus-4-1-20250805"),
      claw.assistant("00000000-0000-4000-8000-000000000003", "00000000-0000-4000-8000-000000000002", "part 2", { input_tokens: 4000, output_tokens: 30 }, "claude-opus-4-1-20250805"),
      claw.user("00000000-0000-4000-8000-000000000004", "00000000-0000-4000-8000-000000000003", "q2"),
      claw.assistant("00000000-0000-4000-8000-000000000005", "00000000-0000-4000-8000-000000000004", "answer", { input_tokens: 5000, output_tokens: 20 }, "claude-opus-4-1-20250805"),
    ]);
    const g = growing(full, 2);
    const ledger = new CostLedger(g.session, format);
    close(ledger.figures().usd, (4000 * 15 + 10 * 75) / 1e6, "the first line's usage");
    g.shown.n = full.metas.length;
    ledger.update();
    const want = sessionCost(full, format);
    assert.equal(want.total.steps, 2);
    same(ledger, want, "after the append");
    close(ledger.figures().usd, (4000 * 15 + 30 * 75 + 5000 * 15 + 20 * 75) / 1e6, "msg_1 once, at its last usage");
  });
});
