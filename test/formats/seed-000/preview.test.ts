import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildPreview } from "../../../src/core/context/preview";
import { openSession } from "../../../src/core/formats/registry";
import { tempDir } from "../../helpers/session-builder";

/** Preview Context with seed-000's strategies: a dry run that calls nothing and says what is kept. */
describe("seed-000 preview with a strategy", () => {
  async function session(n: number, text = "x") {
    const file = join(tempDir(), "long.jsonl");
    const lines = Array.from({ length: n }, (_, k) => ({ id: `m${k + 1}`, parentId: k ? `m${k}` : null, timestamp: 1770714000000 + k, type: k % 2 ? "assistant" : "user", content: `${text} ${k + 1}` }));
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    return openSession(file);
  }

  it("under the 180,000-token limit nothing changes, and the preview says what the strategy keeps once over it", async () => {
    const s = await session(60);
    const p = buildPreview(s, undefined, "pi", undefined, "truncate");
    assert.equal((p.request as { messages: unknown[] }).messages.length, 60, "the context as recorded");
    assert.match(p.text, /changes nothing/);
    assert.match(p.text, /Over its limit it would keep #11-#60 \(m11\.\.m60\)/);
  });

  it("over the limit, truncate keeps the last 50 and the preview lists them; compress puts a marked placeholder summary first", async () => {
    const s = await session(60, "y".repeat(20_000));
    const t = buildPreview(s, undefined, "pi", undefined, "truncate");
    const kept = (t.request as { messages: Array<{ content: string }> }).messages;
    assert.equal(kept.length, 50);
    assert.match(kept[0].content, / 11$/);
    assert.match(t.text, /Kept: #11-#60/);
    const c = buildPreview(s, undefined, "pi", undefined, "compress");
    const msgs = (c.request as { messages: Array<{ role: string; content: string }> }).messages;
    assert.equal(msgs.length, 51);
    assert.match(msgs[0].content, /^\[Previous conversation summary\]\n\(the agent's summary of 10 messages/);
    assert.match(c.text, /placeholder/);
  });

  it("as recorded (no strategy) the preview is the native message list", async () => {
    const s = await session(4);
    const p = buildPreview(s, undefined, "pi");
    assert.deepEqual((p.request as { messages: Array<{ role: string }> }).messages.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
  });
});
