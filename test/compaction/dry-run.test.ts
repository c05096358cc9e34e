import { strict as assert } from "node:assert";
import { appendFileSync, readFileSync } from "node:fs";
import { compactSession } from "../../src/core/formats/pi/compaction/compact";
import { planCompaction } from "../../src/core/formats/pi/compaction/prepare";
import { TRUNCATION_MARKER } from "../../src/core/formats/pi/compaction/truncate";
import { OldVersionError } from "../../src/core/formats/pi/store/append";
import { forkSession } from "../../src/core/formats/pi/store/fork";
import { Session } from "../../src/core/formats/pi/pi-session";
import { formatOf } from "../../src/core/formats/registry";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";
import { assistant, tempDir, user } from "../helpers/session-builder";
import { FakeAnthropic } from "./fake-anthropic";
import { expectOneCompactionLine, expectUnchanged, FAST_RETRY, SMALL, turnsSession } from "./helpers";

// The cut-point and plan rules (nothing written) are in test/formats/pi/compaction-cut.test.ts.
describe("compaction dry run (no network)", () => {
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
});
