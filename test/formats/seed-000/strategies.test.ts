import { strict as assert } from "node:assert";
import { seed000Format } from "../../../src/core/formats/seed-000/format";
import type { Seed000Message } from "../../../src/core/formats/seed-000/messages";
import {
  applyPlan,
  applyStrategy,
  COMPRESS_PREFIX,
  DEFAULT_MAX_TOKENS,
  estimateTokens,
  importance,
  KEEP_RECENT_COUNT,
  planStrategy,
  SMART_PREFIX,
} from "../../../src/core/formats/seed-000/strategies";
import { assistant, type Line, memory, toolCall, toolResult, user } from "./helpers";

/** `turns` turns of user, assistant, tool call, tool result: 4 messages each, on one chain. */
function turnLines(turns: number, fill = ""): Line[] {
  const out: Line[] = [];
  let parent: string | null = null;
  const push = (l: Line) => {
    out.push(l);
    parent = l.id;
  };
  for (let k = 1; k <= turns; k++) {
    push(user(`u${k}`, parent, `next (${k})${fill}`));
    push(assistant(`a${k}`, parent, `Looking at ${k}.${fill}`));
    push(toolCall(`c${k}`, parent, "run_test", { n: k }));
    push(toolResult(`r${k}`, parent, `ok ${k}`));
  }
  return out;
}

function messagesOf(lines: Line[]): Seed000Message[] {
  const s = memory(lines);
  return seed000Format.context(s, seed000Format.defaultLeaf(s)).messages.map((m) => m.message as Seed000Message);
}

const ALWAYS = { maxTokens: 0 };

describe("seed-000 strategies", () => {
  it("tokens are chars/4 of the JSON of the messages, rounded up", () => {
    const m: Seed000Message[] = [{ role: "user", content: "ab" }];
    assert.equal(JSON.stringify(m).length, 32);
    assert.equal(estimateTokens(m), 8);
    assert.equal(estimateTokens([{ role: "user", content: "abc" }]), 9);
  });

  describe("the token limit", () => {
    const messages = messagesOf(turnLines(15)); // 60 messages
    const tokens = estimateTokens(messages);

    for (const strategy of ["truncate", "compress", "smart"] as const) {
      it(`${strategy}: nothing changes at or below maxTokens, it applies one token above`, () => {
        for (const maxTokens of [tokens, tokens + 1]) {
          const plan = planStrategy(strategy, messages, { maxTokens });
          assert.equal(plan.applies, false);
          assert.match(plan.why ?? "", new RegExp(`${tokens} tokens, not over the ${maxTokens} limit`));
          assert.deepEqual(plan.kept, messages.map((_, i) => i));
          assert.deepEqual(applyStrategy(plan, messages), messages);
        }
        const plan = planStrategy(strategy, messages, { maxTokens: tokens - 1 });
        assert.equal(plan.applies, true);
        assert.equal(plan.tokensBefore, tokens);
        assert.ok(plan.keptTokens < tokens);
      });
    }

    it("the default limit is 180,000 tokens: a small session is left alone, a large one is not", () => {
      assert.equal(DEFAULT_MAX_TOKENS, 180_000);
      assert.equal(planStrategy("truncate", messages).applies, false);
      // 30 texts (the user and assistant ones) of 6,100 or 24,100 chars: about 46k or 181k tokens.
      const big = messagesOf(turnLines(15, "x".repeat(6100)));
      const bigTokens = estimateTokens(big);
      assert.ok(bigTokens < DEFAULT_MAX_TOKENS, `${bigTokens}`);
      const bigger = messagesOf(turnLines(15, "x".repeat(24_100)));
      assert.ok(estimateTokens(bigger) > DEFAULT_MAX_TOKENS);
      assert.equal(planStrategy("truncate", big).applies, false);
      const plan = planStrategy("truncate", bigger);
      assert.equal(plan.applies, true);
      assert.equal(plan.kept.length, KEEP_RECENT_COUNT);
    });
  });

  describe("the message count", () => {
    it("at 50 messages or fewer compress and smart change nothing; at 51 they apply", () => {
      const fifty = messagesOf(turnLines(13)).slice(0, 50);
      for (const strategy of ["truncate", "compress", "smart"] as const) {
        const plan = planStrategy(strategy, fifty, ALWAYS);
        assert.equal(plan.applies, false, strategy);
        assert.match(plan.why ?? "", /50 message\(s\), not more than the 50 kept/);
      }
      const fiftyOne = messagesOf(turnLines(13)).slice(0, 51);
      const c = planStrategy("compress", fiftyOne, ALWAYS);
      assert.deepEqual([c.applies, c.summarized, c.kept[0], c.kept.length], [true, [0], 1, 50]);
      const t = planStrategy("truncate", fiftyOne, ALWAYS);
      assert.deepEqual([t.applies, t.dropped, t.summarized, t.kept.length], [true, [0], [], 50]);
      assert.equal(planStrategy("smart", fiftyOne, ALWAYS).applies, true);
    });

    it("--keep-recent N: truncate and compress keep the last N, and N is also the count gate", () => {
      const messages = messagesOf(turnLines(3)); // 12
      const t = planStrategy("truncate", messages, { keepRecent: 5, maxTokens: 0 });
      assert.deepEqual(t.kept, [7, 8, 9, 10, 11]);
      assert.deepEqual(applyStrategy(t, messages), messages.slice(7));
      const c = planStrategy("compress", messages, { keepRecent: 5, maxTokens: 0 });
      assert.deepEqual(c.summarized, [0, 1, 2, 3, 4, 5, 6]);
      const out = applyStrategy(c, messages, "S");
      assert.deepEqual(out, [{ role: "user", content: `${COMPRESS_PREFIX}S` }, ...messages.slice(7)]);
      assert.equal(COMPRESS_PREFIX, "[Previous conversation summary]\n");
      assert.equal(planStrategy("compress", messages, { keepRecent: 12, maxTokens: 0 }).applies, false);
      assert.equal(planStrategy("compress", messages, { keepRecent: 0, maxTokens: 0 }).kept.length, 0);
    });

    it("keepRecent and maxTokens must be whole numbers >= 0", () => {
      assert.throws(() => planStrategy("truncate", [], { keepRecent: -1 }), /keepRecent must be a whole number >= 0, got -1/);
      assert.throws(() => planStrategy("truncate", [], { keepRecent: 1.5 }), /got 1.5/);
      assert.throws(() => planStrategy("truncate", [], { maxTokens: Number.NaN }), /maxTokens must be/);
    });
  });

  describe("truncate", () => {
    it("can leave a leading orphan tool_result, and leaves it as is (as the seed does)", () => {
      const messages = messagesOf(turnLines(3)); // u a c r | u a c r | u a c r
      const plan = planStrategy("truncate", messages, { keepRecent: 9, maxTokens: 0 });
      const out = applyStrategy(plan, messages);
      assert.equal(out.length, 9);
      assert.deepEqual(out[0], { role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "ok 1" }] });
      assert.ok(!JSON.stringify(out).includes('"id":"c1"'), "its call is gone");
    });
  });

  describe("smart", () => {
    it("the three reasons: tool_use in the JSON (calls and results), error/Error, longer than 1000 chars", () => {
      const m = (content: Seed000Message["content"], role: Seed000Message["role"] = "user"): Seed000Message => ({ role, content });
      assert.equal(importance(m([{ type: "tool_use", id: "c", name: "ls", input: {} }], "assistant")), "tool-use");
      assert.equal(importance(m([{ type: "tool_result", tool_use_id: "c", content: "ok" }])), "tool-use");
      assert.equal(importance(m("an error here")), "error");
      assert.equal(importance(m("TypeError: x")), "error");
      assert.equal(importance(m("ERROR in caps is not one")), undefined, "the seed's check is case-sensitive");
      assert.equal(importance(m("x".repeat(998))), undefined, "JSON of 1000 chars is not longer than 1000");
      assert.equal(importance(m("x".repeat(999))), "long", "JSON of 1001 chars");
      assert.equal(importance(m('"'.repeat(500))), "long", "the JSON's length counts, escapes included");
      assert.equal(importance(m("plain")), undefined);
    });

    it("keeps the important messages in order with the summary first; the rest are summarized", () => {
      const lines = turnLines(13); // 52
      lines[4] = { ...lines[4], content: "That error again?" };
      lines[9] = { ...lines[9], content: "x".repeat(1200) };
      const messages = messagesOf(lines);
      const plan = planStrategy("smart", messages, ALWAYS);
      assert.equal(plan.applies, true);
      assert.equal(plan.reasons?.get(4), "error");
      assert.equal(plan.reasons?.get(9), "long");
      assert.equal(plan.reasons?.get(2), "tool-use");
      assert.equal(plan.reasons?.get(3), "tool-use");
      const expectKept = messages.map((_, i) => i).filter((i) => i % 4 >= 2 || i === 4 || i === 9);
      assert.deepEqual(plan.kept, expectKept);
      assert.deepEqual(plan.summarized, messages.map((_, i) => i).filter((i) => !expectKept.includes(i)));
      const out = applyStrategy(plan, messages, "S");
      assert.deepEqual(out[0], { role: "user", content: `${SMART_PREFIX}S` });
      assert.equal(SMART_PREFIX, "[Conversation summary]\n");
      assert.deepEqual(out.slice(1), expectKept.map((i) => messages[i]));
    });

    it("when every message is important there is nothing to summarize: no change", () => {
      const messages = messagesOf(turnLines(13)).filter((m) => typeof m.content !== "string");
      assert.equal(messages.length, 26);
      const plan = planStrategy("smart", messages, { keepRecent: 10, maxTokens: 0 });
      assert.equal(plan.applies, false);
      assert.match(plan.why ?? "", /every message is important/);
    });
  });

  describe("apply", () => {
    const messages = messagesOf(turnLines(13));
    it("a plan that summarizes needs the summary; truncate takes none", () => {
      assert.throws(() => applyStrategy(planStrategy("compress", messages, ALWAYS), messages), /compress summarizes 2 message\(s\): a summary is needed/);
      assert.equal(applyStrategy(planStrategy("truncate", messages, ALWAYS), messages).length, 50);
    });
    it("a plan applies only to the list it was made for; items of any shape carry along", () => {
      const plan = planStrategy("compress", messages, ALWAYS);
      assert.throws(() => applyStrategy(plan, messages.slice(1), "S"), /a compress plan made for 52 messages cannot apply to 51/);
      const ids = messages.map((_, i) => `e${i}`);
      assert.deepEqual(applyPlan(plan, ids, "summary").slice(0, 2), ["summary", "e2"]);
    });
  });
});
