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
 * A session whose reads are counted: every call of a method of the session or of its tree
 * (entryAt, path, children, ...). Work that grows with the square of the lines shows as
 * calls that quadruple when the lines double; counts, unlike timings, do not depend on how
 * busy the machine is (speed itself is the bench's: npm run bench).
 */
function counted(s: SessionReader): { session: SessionReader; calls: () => number } {
  let calls = 0;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key, recv) {
        const v = Reflect.get(t, key, recv);
        if (typeof v !== "function") return v;
        return (...args: unknown[]) => {
          calls++;
          return (v as (...a: unknown[]) => unknown).apply(t, args);
        };
      },
    });
  const tree = wrap(s.tree);
  const session = new Proxy(s, {
    get(t, key, recv) {
      if (key === "tree") return tree;
      const v = Reflect.get(t, key, recv);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        calls++;
        return (v as (...a: unknown[]) => unknown).apply(t, args);
      };
    },
  });
  return { session, calls: () => calls };
}

/** The chain for the default leaf of fresh sessions of n and 2n lines, and the ratio of the reads each took. */
async function readRatio(make: (n: number) => Promise<SessionReader>, n: number) {
  const run = async (k: number) => {
    const s = await make(k);
    const c = counted(s);
    const chain = f.chain!(c.session, f.defaultLeaf(s));
    return { s, chain, calls: c.calls() };
  };
  const small = await run(n);
  const big = await run(2 * n);
  return { small: small.s, big: big.s, a: small.chain, b: big.chain, aCalls: small.calls, bCalls: big.calls, ratio: big.calls / Math.max(small.calls, 1) };
}

describe("Claude Code chain: linear in tool results on side branches", function () {
  this.timeout(600_000);

  it("20,000 and 40,000 parallel results: every result recovered in order, reads(2n)/reads(n) about 2", async () => {
    const n = 20_000;
    const { small, big, a, b, aCalls, bCalls, ratio } = await readRatio(parallelTools, n);
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
    // Linear doubles; quadratic quadruples. The chain reads every line at least once.
    assert.ok(aCalls >= n, `only ${aCalls} reads for ${n} results`);
    assert.ok(ratio < 2.5, `reads(2n)/reads(n) = ${ratio.toFixed(2)} (${aCalls}, ${bCalls})`);
  });

  it("10,000 and 20,000 partial compactions: each relinked, reads(2n)/reads(n) about 2", async () => {
    const n = 10_000;
    const { small, big, a, b, aCalls, bCalls, ratio } = await readRatio(partialCompactions, n);
    for (const [s, c, k] of [[small, a, n], [big, b, 2 * n]] as const) {
      // The last compaction's chain: boundary, summary, the kept head and tail, then the line moved under the tail.
      assert.deepEqual(c.map((i) => s.metas[i].id), [`b${k}`, `s${k}`, `h${k}`, `t${k}`, `a${k}`]);
    }
    assert.ok(aCalls >= n, `only ${aCalls} reads for ${n} compactions`);
    assert.ok(ratio < 2.5, `reads(2n)/reads(n) = ${ratio.toFixed(2)} (${aCalls}, ${bCalls})`);
  });
});
