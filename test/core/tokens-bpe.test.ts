import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { countExact, gptTokenizerCounter } from "../../src/core/tokens/bpe-counter";
import { chunkAtWhitespace } from "../../src/core/tokens/text-chunks";
import { entryPieces } from "../../src/core/formats/pi/tokens/pi-pieces";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";

describe("the BPE tokenizer we ship", () => {
  it("cuts text into pieces of at most 1,000 chars at whitespace, losing nothing", () => {
    const text = `${"lorem ipsum dolor ".repeat(300)}${"x".repeat(2500)}😀${"y".repeat(998)}`;
    const pieces = chunkAtWhitespace(text, 1000);
    assert.equal(pieces.join(""), text);
    assert.ok(pieces.every((p) => p.length <= 1000 && p.length > 0));
    assert.ok(pieces.slice(1, 4).every((p) => p.startsWith(" ")), "cut before the space");
    assert.ok(pieces.every((p) => !/^[\udc00-\udfff]/.test(p)), "never inside a surrogate pair");
  });

  it("falls back to chars/4 for the rest of a text when its time budget runs out", () => {
    let t = 0;
    const slow = { name: "slow", count: (s: string) => ((t += 100), s.length) };
    const text = "abcd ".repeat(1000);
    const r = countExact(slow, text, { budgetMs: 150, budgetMsPer1000: 0, now: () => t });
    assert.ok(r.fallbackChars > 0 && r.fallbackChars < text.length);
    assert.equal(gptTokenizerCounter().count("<|endoftext|> is plain text here") > 3, true, "special tokens never throw");
  });

  it("gpt-tokenizer gives the same o200k counts as js-tiktoken on the real sessions' text", async function () {
    needFixtures(this);
    this.timeout(120000);
    // js-tiktoken ships as ESM-first types; a dynamic import keeps this CommonJS test file valid.
    const { getEncoding } = await import("js-tiktoken");
    const ref = getEncoding("o200k_base");
    const ours = gptTokenizerCounter();
    let pieces = 0;
    let tokens = 0;
    for (const name of REAL_SESSIONS) {
      for (const line of readFileSync(fixture(`${name}.jsonl`), "utf8").split("\n").slice(1)) {
        if (!line.trim()) continue;
        for (const p of entryPieces(JSON.parse(line) as Record<string, unknown>).texts) {
          for (const chunk of chunkAtWhitespace(p.text)) {
            const a = ours.count(chunk);
            const b = ref.encode(chunk, [], []).length;
            if (a !== b) assert.fail(`counts differ (${a} vs ${b}) on: ${JSON.stringify(chunk.slice(0, 80))}`);
            pieces++;
            tokens += a;
          }
        }
      }
    }
    assert.ok(pieces > 3000 && tokens > 400000, `${pieces} pieces, ${tokens} tokens`);
  });
});
