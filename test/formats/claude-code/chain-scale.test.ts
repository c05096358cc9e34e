import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { openSession } from "../../../src/core/formats/registry";
import type { SessionReader } from "../../../src/core/session/session-reader";
import { tempDir } from "../../helpers/session-builder";
import { boundary, compactSummary, fragment, jsonl, type Raw, text, toolResult, toolUse, user } from "./lines";

/**
 * The older parallel-tool layout (section 5): one response of n tool_use fragments in a
 * chain, each result written under its own fragment, so n - 1 results sit on side
 * branches and only the last one continues the conversation.
 */
async function parallelTools(n: number): Promise<SessionReader> {
  const lines: Raw[] = [user("u0", null, "run them all")];
  for (let i = 1; i <= n; i++) lines.push(fragment(`f${i}`, i === 1 ? "u0" : `f${i - 1}`, "msg_PAR", toolUse(`t${i}`, "Bash", { command: `echo ${i}` })));
  for (let i = 1; i <= n; i++) lines.push(toolResult(`r${i}`, `f${i}`, `t${i}`, `out ${i}`));
  lines.push(fragment("done", `r${n}`, "msg_END", text("all done")));
  const file = join(tempDir(), "cc000000-0000-4000-8000-000000000000.jsonl");
  writeFileSync(file, jsonl(lines));
  return openSession(file);
}

/**
 * n partial compactions in a row (section 9), each keeping a segment: boundary, summary,
 * the kept head and tail; each relink moves the summary's other children under the tail.
 */
async function partialCompactions(n: number): Promise<SessionReader> {
  const lines: Raw[] = [user("h0", null, "start"), fragment("t0", "h0", "msg_0", text("ok"))];
  for (let j = 1; j <= n; j++) {
    lines.push(boundary(`b${j}`, `t${j - 1}`, { preservedSegment: { headUuid: `h${j}`, anchorUuid: `s${j}`, tailUuid: `t${j}` } }));
    lines.push(compactSummary(`s${j}`, `b${j}`, `summary ${j}`));
    lines.push(user(`h${j}`, `t${j - 1}`, `kept ${j}`));
    lines.push(fragment(`t${j}`, `h${j}`, `msg_${j}`, text(`answer ${j}`)));
    lines.push(user(`a${j}`, `s${j}`, `after ${j}`));
  }
  const file = join(tempDir(), "cc000000-0000-4000-8000-000000000000.jsonl");
  writeFileSync(file, jsonl(lines));
  return openSession(file);
}

/**
 * The fastest of `runs` timings of the chain on fresh sessions of each size, taken in turn
 * (small, big, small, ...): one slow run on a busy machine (a GC, another process) must not
 * decide a ratio. Returns the first sessions and chains for the checks.
 */
async function bestRatio(make: (n: number) => Promise<SessionReader>, n: number, runs = 3) {
  let a = Number.POSITIVE_INFINITY;
  let b = Number.POSITIVE_INFINITY;
  let first: { small: SessionReader; big: SessionReader; a: number[]; b: number[] } | undefined;
  for (let k = 0; k < runs; k++) {
    const small = await make(n);
    const big = await make(2 * n);
    const x = timedChain(small);
    const y = timedChain(big);
    a = Math.min(a, x.ms);
    b = Math.min(b, y.ms);
    first ??= { small, big, a: x.chain, b: y.chain };
  }
  return { ...(first as NonNullable<typeof first>), aMs: a, bMs: b, ratio: b / Math.max(a, 1) };
}

/** The chain for the default leaf and how long it took (facts included: a fresh session). */
function timedChain(s: SessionReader): { chain: number[]; ms: number } {
  const t0 = process.hrtime.bigint();
  const chain = f.chain!(s, f.defaultLeaf(s));
  return { chain, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
}

describe("Claude Code chain: linear in tool results on side branches", function () {
  this.timeout(600_000);

  it("20,000 and 40,000 parallel results: every result recovered in order, time(2n)/time(n) well under 4", async () => {
    const n = 20_000;
    // Warm the code paths on a small case first, so the first timing is not a JIT warm-up.
    timedChain(await parallelTools(2_000));
    const { small, big, a, b, aMs, bMs, ratio } = await bestRatio(parallelTools, n);
    for (const [s, c, k] of [[small, a, n], [big, b, 2 * n]] as const) {
      const ids = c.map((i) => s.metas[i].id);
      assert.equal(ids.length, 2 * k + 2, "every line on the chain");
      assert.deepEqual(ids.slice(0, 2), ["u0", "f1"]);
      // The side results go right after the last fragment, oldest first, then the rest of the chain.
      assert.equal(ids[k], `f${k}`);
      assert.equal(ids[k + 1], "r1");
      assert.equal(ids[2 * k - 1], `r${k - 1}`);
      assert.deepEqual(ids.slice(-2), [`r${k}`, "done"]);
    }
    // Linear doubles; quadratic quadruples. Generous for a busy machine (best of three each).
    assert.ok(ratio < 3, `time(2n)/time(n) = ${ratio.toFixed(2)} (${aMs.toFixed(0)} ms, ${bMs.toFixed(0)} ms)`);
  });

  it("10,000 and 20,000 partial compactions: each relinked, time(2n)/time(n) well under 4", async () => {
    const n = 10_000;
    timedChain(await partialCompactions(1_000));
    const { small, big, a, b, aMs, bMs, ratio } = await bestRatio(partialCompactions, n);
    for (const [s, c, k] of [[small, a, n], [big, b, 2 * n]] as const) {
      // The last compaction's chain: boundary, summary, the kept head and tail, then the line moved under the tail.
      assert.deepEqual(c.map((i) => s.metas[i].id), [`b${k}`, `s${k}`, `h${k}`, `t${k}`, `a${k}`]);
    }
    assert.ok(ratio < 3, `time(2n)/time(n) = ${ratio.toFixed(2)} (${aMs.toFixed(0)} ms, ${bMs.toFixed(0)} ms)`);
  });
});
