import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { Session } from "../../../src/core/formats/pi/pi-session";
import { gptTokenizerCounter } from "../../../src/core/tokens/bpe-counter";
import { branchTotals, subtreeTotals } from "../../../src/core/formats/pi/tokens/branch-totals";
import { instantTokens, measureEntries } from "../../../src/core/formats/pi/tokens/entry-tokens";
import { instantLeafBar, leafTokens } from "../../../src/core/formats/pi/tokens/leaf-tokens";
import { estimateTextTokens } from "../../../src/core/tokens/estimate";
import { estimateMessageTokens } from "../../../src/core/formats/pi/tokens/pi-estimate";
import { TokenCache } from "../../../src/core/tokens/token-cache";
import { sumCounts } from "../../../src/core/tokens/kind-counts";
import { COUNT_ORDER } from "../../../src/core/tokens/kind-counts";
import { tokenReport } from "../../../src/core/formats/pi/tokens/token-report";
import type { AgentMessage } from "../../../src/core/formats/pi/model/messages";
import { fixture, needFixtures, REAL_SESSIONS } from "../../helpers/fixtures";
import { assistant, entry, header, tempDir, toolResult, user, writeSession } from "../../helpers/session-builder";

type Raw = Record<string, unknown>;

function rawLines(file: string): Raw[] {
  return readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Raw).slice(1);
}

describe("token accounting on the real pi sessions", () => {
  for (const name of REAL_SESSIONS) {
    it(`${name}: recorded figures are the file's usage, entry by entry`, async function () {
      needFixtures(this);
      const file = fixture(`${name}.jsonl`);
      const report = await tokenReport(await Session.load(file));
      const raws = rawLines(file);
      assert.equal(report.entries.length, raws.length);
      let calls = 0;
      raws.forEach((raw, i) => {
        const m = raw.message as Raw | undefined;
        const u = m?.role === "assistant" ? (m.usage as Raw) : undefined;
        if (!u) return assert.equal(report.entries[i].recorded, undefined);
        calls++;
        const r = report.entries[i].recorded;
        assert.ok(r, `entry ${i} lost its usage`);
        assert.deepEqual([r.input, r.output, r.cacheRead, r.cacheWrite], [u.input, u.output, u.cacheRead, u.cacheWrite]);
      });
      assert.ok(calls > 400);
    });

    it(`${name}: the leaf's context size is pi's rule (last trusted usage + chars/4 after it)`, async function () {
      needFixtures(this);
      const session = await Session.load(fixture(`${name}.jsonl`));
      const report = await tokenReport(session);
      // Independent walk over pi's message list for the default leaf.
      const msgs = buildContext(session).agent.map((p) => p.agent as AgentMessage & Raw);
      let at = -1;
      for (let i = msgs.length - 1; i >= 0 && at < 0; i--) {
        const m = msgs[i];
        if (m.role === "assistant" && m.usage && m.stopReason !== "aborted" && m.stopReason !== "error") at = i;
      }
      assert.ok(at >= 0);
      const u = msgs[at].usage as { input: number; output: number; cacheRead: number; cacheWrite: number; totalTokens?: number };
      let want = u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
      for (let i = at + 1; i < msgs.length; i++) want += estimateMessageTokens(msgs[i]);
      assert.equal(report.leaf.contextTokens, want);
      assert.equal(report.leaf.threshold, 200000 - 16384);
      assert.equal(report.leaf.wouldCompact, want > 200000 - 16384);
    });

    it(`${name}: per-branch totals add up and the budget sums to the context total`, async function () {
      needFixtures(this);
      const session = await Session.load(fixture(`${name}.jsonl`));
      const report = await tokenReport(session);
      const byEst = branchTotals(session, report.entries, "estimate");
      assert.equal(byEst.length, 1, "both real sessions are one straight line");
      const b = byEst[0];
      assert.equal(sumCounts(b.byKind), b.tokens);
      assert.equal(b.path.tokens, report.entries.reduce((a, e) => a + e.estimate, 0));
      assert.equal(b.entries, session.metas.length);
      for (const k of COUNT_ORDER) assert.equal(b.byKind[k], report.entries.reduce((a, e) => a + e.estimateByKind[k], 0), k);
      for (const br of report.branches) assert.equal(sumCounts(br.byKind), br.tokens);
      assert.equal(report.budget.parts.reduce((a, p) => a + p.used, 0), report.leaf.contextTokens);
      assert.equal(report.budget.parts.reduce((a, p) => a + p.allocated, 0), report.leaf.threshold);
      const shares = report.shares.parts.reduce((a, p) => a + p.share, 0) + report.shares.overheadShare;
      assert.ok(shares <= 1 + 1e-9 && shares > 0.99, `shares sum to ${shares}`);
    });

    it(`${name}: calibration beats the raw tokenizer on held-out calls`, async function () {
      needFixtures(this);
      const report = await tokenReport(await Session.load(fixture(`${name}.jsonl`)), { accuracy: true });
      const a = report.accuracy;
      assert.ok(a && a.testSteps > 100);
      const row = (m: string) => a.methods.find((x) => x.method === m);
      const cal = row("calibrated");
      const tok = row("tokenizer");
      assert.ok(cal && tok);
      assert.ok(cal.median < tok.median / 2, `calibrated ${cal.median} vs tokenizer ${tok.median}`);
      assert.ok(tok.bias < 0, "raw o200k undercounts Claude");
    });
  }
});

// These stay on temp files: measureEntries (under tokenReport) reads entry bodies by byte
// range from the session's file itself, not through the session (see entry-tokens.ts).
describe("token accounting on small built sessions", () => {
  it("branches: one per leaf, measured from the nearest branch point; subtree totals", async () => {
    const file = writeSession([
      header(),
      user("a0000001", null, "x".repeat(400)),
      assistant("a0000002", "a0000001", "y".repeat(40)),
      user("a0000003", "a0000002", "left ".repeat(80)),
      user("a0000004", "a0000002", "right ".repeat(40)),
      assistant("a0000005", "a0000004", "z".repeat(8), { thinking: "t".repeat(80) }),
    ]);
    const session = await Session.load(file);
    const report = await tokenReport(session);
    const br = branchTotals(session, report.entries, "estimate");
    assert.deepEqual(br.map((b) => [b.leafId, b.fromId, b.entries]), [["a0000003", "a0000002", 1], ["a0000005", "a0000002", 2]]);
    assert.equal(br[0].tokens, 100);
    assert.equal(br[0].path.tokens, 100 + 100 + 10);
    assert.deepEqual([br[1].byKind.user, br[1].byKind.thinking, br[1].byKind.assistant], [60, 20, 2]);
    const sub = subtreeTotals(session, report.entries, 1, "estimate");
    assert.equal(sub.entries, 4);
    assert.equal(sub.tokens, 10 + 100 + 60 + 22);
  });

  it("compaction: context size after it, the threshold from a window override, wouldCompact", async () => {
    const file = writeSession([
      header(),
      user("b0000001", null, "old question"),
      assistant("b0000002", "b0000001", "old answer", { usage: { input: 90000, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 90100 } }),
      user("b0000003", "b0000002", "kept question"),
      entry("compaction", "b0000004", "b0000003", { summary: "s".repeat(400), firstKeptEntryId: "b0000003", tokensBefore: 90100 }),
      user("b0000005", "b0000004", "q".repeat(4000)),
    ]);
    const session = await Session.load(file);
    const report = await tokenReport(session, { windows: { "claude-": 2000 }, reserveTokens: 500 });
    // After the compaction no usage is on the context: all estimated (summary + kept + new).
    assert.equal(report.leaf.recorded, 0);
    assert.equal(report.leaf.contextTokens, Math.ceil(400 / 4) + Math.ceil(13 / 4) + 1000);
    assert.equal(report.leaf.threshold, 1500);
    assert.equal(report.leaf.windowSource, "override", "the model comes from the whole path, compacted part included");
    const withModel = await tokenReport(session, { windows: { "": 1000 } });
    assert.equal(withModel.leaf.wouldCompact, true);
    const summary = report.budget.parts.find((p) => p.name === "summary");
    assert.ok(summary && summary.used > 0);
    assert.deepEqual(summary.entryIds, ["b0000004"]);
    assert.deepEqual(report.budget.parts.find((p) => p.name === "current")?.entryIds, ["b0000005"]);
  });

  it("images count 1,200 tokens under images (pi's own rule gives user images 0)", async () => {
    const img = { type: "image", data: "A".repeat(50000), mimeType: "image/png" };
    const file = writeSession([
      header(),
      { type: "message", id: "c0000001", parentId: null, timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: [{ type: "text", text: "look" }, img] } },
      { type: "message", id: "c0000002", parentId: "c0000001", timestamp: "2026-01-01T00:00:01Z", message: { role: "toolResult", toolCallId: "t", toolName: "read", content: [img], isError: false } },
    ]);
    const session = await Session.load(file);
    const report = await tokenReport(session, { exact: true });
    const [u, t] = report.entries;
    assert.equal(u.pi, 1);
    assert.equal(u.estimateByKind.image, 1200);
    assert.equal(u.exactByKind?.image, 1200);
    assert.equal(t.pi, 1200);
    assert.equal(t.estimateByKind.image, 1200);
    assert.equal(t.estimateByKind.toolResult, 0, "base64 data is never counted as text");
  });

  it("CJK text is estimated per character, far closer to the tokenizer than chars/4", async () => {
    const cjk = "日本語のテキストを数えます。中文文本也一样。한국어 텍스트도。".repeat(20);
    assert.equal(estimateTextTokens("日本語"), 3);
    assert.equal(estimateTextTokens("abcdefgh"), 2);
    assert.equal(estimateTextTokens("😀😀"), 2, "an astral character counts once, not per UTF-16 unit");
    const file = writeSession([header(), user("d0000001", null, cjk)]);
    const report = await tokenReport(await Session.load(file), { exact: true });
    const e = report.entries[0];
    const exact = e.exact as number;
    // o200k packs common CJK a little tighter than one per character; chars/4 is off by 3x.
    assert.ok(Math.abs(e.estimate - exact) < Math.abs(e.pi - exact) / 2, `estimate ${e.estimate}, pi ${e.pi}, exact ${exact}`);
  });

  it("exact counts come from the cache on a second run, with identical figures", async () => {
    const dir = tempDir();
    const lines: Raw[] = [header(), user("e0000001", null, "hello there ".repeat(300))];
    for (let i = 2; i < 40; i += 2) {
      lines.push(assistant(`e${String(i).padStart(7, "0")}`, `e${String(i - 1).padStart(7, "0")}`, `step ${i} `.repeat(50)));
      lines.push(toolResult(`e${String(i + 1).padStart(7, "0")}`, `e${String(i).padStart(7, "0")}`, "t", "bash", `output ${i} `.repeat(200)));
    }
    const session = await Session.load(writeSession(lines));
    const cachePath = join(dir, "cache", "tokens.json");
    const first = instantTokens(session);
    const c1 = TokenCache.open(cachePath, "o200k_base");
    const s1 = await measureEntries(session, first, { counter: gptTokenizerCounter(), cache: c1 });
    c1.save();
    assert.equal(s1.tokenized, 39);
    const second = instantTokens(session);
    const c2 = TokenCache.open(cachePath, "o200k_base");
    const s2 = await measureEntries(session, second, { counter: gptTokenizerCounter(), cache: c2 });
    assert.equal(s2.tokenized, 0);
    assert.equal(s2.cacheHits, 39);
    assert.deepEqual(second, first);
    // Another tokenizer's cache is never trusted.
    assert.equal(TokenCache.open(cachePath, "cl100k_base").size, 0);
  });

  it("exact counting yields to the event loop, reports progress and stops on abort", async () => {
    const lines: Raw[] = [header()];
    for (let i = 1; i <= 300; i++) lines.push(user(`f${String(i).padStart(7, "0")}`, i > 1 ? `f${String(i - 1).padStart(7, "0")}` : null, `word${i} `.repeat(400)));
    const session = await Session.load(writeSession(lines));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const progress: number[] = [];
    const ac = new AbortController();
    const run = measureEntries(session, instantTokens(session), {
      counter: gptTokenizerCounter(),
      sliceMs: 2,
      signal: ac.signal,
      onProgress: (done) => {
        progress.push(done);
        if (done > 50) ac.abort(new Error("cancelled by test"));
      },
    });
    await assert.rejects(run, /cancelled by test/);
    clearInterval(timer);
    assert.ok(progress.length >= 2 && progress[progress.length - 1] < 300, `progress ${progress.join(",")}`);
    assert.ok(ticks >= 1, "timers ran while counting");
  });
});

describe("instant leaf bar (index only)", () => {
  for (const name of REAL_SESSIONS) {
    it(`${name}: selects buildContext's entries and gives pi's context size without reading bodies`, async function () {
      needFixtures(this);
      const session = await Session.load(fixture(`${name}.jsonl`));
      const bar = instantLeafBar(session);
      const ctx = buildContext(session);
      const ids = [...new Set(ctx.agent.map((p) => p.entryId))];
      assert.deepEqual(bar.entries.map((i) => session.metas[i].id), ids);
      assert.equal(bar.contextTokens, leafTokens(ctx).contextTokens);
      assert.equal(bar.approximate, false);
    });
  }
});
