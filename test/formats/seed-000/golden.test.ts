import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { seed000Format } from "../../../src/core/formats/seed-000/format";
import type { Seed000Message } from "../../../src/core/formats/seed-000/messages";
import { applyPlan, COMPRESS_PREFIX, planStrategy, SMART_PREFIX, type Seed000Strategy } from "../../../src/core/formats/seed-000/strategies";
import { load as loadFile, needSeedFixtures, SHARED_FIXTURES } from "./helpers";

interface Golden {
  defaultLeaf: string;
  context: {
    entryIds: string[];
    messages: Seed000Message[];
    strategies: { keepRecentCount: number } & Record<Seed000Strategy, Seed000Message[]>;
  };
}

const PREFIX: Partial<Record<Seed000Strategy, string>> = { compress: COMPRESS_PREFIX, smart: SMART_PREFIX };

describe("seed-000 goldens (../shared/fixtures/seed-000)", () => {
  for (const name of ["branches", "long-strategies"]) {
    describe(name, () => {
      const load = async () => {
        const session = await loadFile(join(SHARED_FIXTURES, `${name}.jsonl`));
        const golden = JSON.parse(readFileSync(join(SHARED_FIXTURES, `${name}.golden.json`), "utf8")) as Golden;
        return { session, golden };
      };

      it("default leaf, entry ids and messages", async function () {
        needSeedFixtures(this, `${name}.jsonl`, `${name}.golden.json`);
        const { session, golden } = await load();
        assert.equal(session.problemCount, 0);
        const leaf = seed000Format.defaultLeaf(session);
        assert.equal(session.metas[leaf].id, golden.defaultLeaf);
        const ctx = seed000Format.context(session, leaf);
        assert.equal(ctx.leafId, golden.defaultLeaf);
        assert.deepEqual(ctx.messages.map((m) => m.entryId), golden.context.entryIds);
        assert.deepEqual(ctx.messages.map((m) => m.message), golden.context.messages);
      });

      for (const strategy of ["truncate", "compress", "smart"] as const) {
        it(`${strategy}: the kept messages, and the summary message's prefix`, async function () {
          needSeedFixtures(this, `${name}.jsonl`, `${name}.golden.json`);
          const { session, golden } = await load();
          const messages = seed000Format.context(session, seed000Format.defaultLeaf(session)).messages.map((m) => m.message as Seed000Message);
          // The goldens pin the selection once a strategy applies; their sessions are far
          // below the 180,000-token limit, so the limit is set to 0 here.
          const plan = planStrategy(strategy, messages, { keepRecent: golden.context.strategies.keepRecentCount, maxTokens: 0 });
          const want = golden.context.strategies[strategy];
          const prefix = PREFIX[strategy];
          const placeholder: Seed000Message = { role: "user", content: `${prefix ?? ""}(summary)` };
          const got = applyPlan(plan, messages, plan.summarized.length ? placeholder : undefined);
          assert.equal(got.length, want.length);
          if (plan.summarized.length) {
            assert.ok(prefix);
            const [summary, ...kept] = want;
            assert.equal(summary.role, "user");
            assert.ok(typeof summary.content === "string" && summary.content.startsWith(prefix), `${strategy} summary starts with its prefix`);
            assert.deepEqual(got.slice(1), kept);
          } else {
            assert.deepEqual(got, want);
          }
        });
      }
    });
  }
});
