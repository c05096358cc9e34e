import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../../src/cli/main";
import { buildPreview } from "../../../src/core/context/preview";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { claudeCodeIndexHooks } from "../../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../../src/core/session/memory-session";
import { leafTokenSummary, messageTokens } from "../../../src/core/usage/format-tokens";
import { fragment, jsonl, type Raw, text, thinking, toolResult, toolUse, user } from "./lines";

const session = (records: Raw[]) => new MemorySession("claude-code", claudeCodeIndexHooks, records);

/** A response in two lines whose last line carries the final usage: input 5,000 + cache write 20,000 + cache read 1,000. */
function withUsage(r: Raw, usage: Raw): Raw {
  const m = r.message as Raw;
  return { ...r, message: { ...m, usage } };
}

const LAST_USAGE = { input_tokens: 5000, cache_creation_input_tokens: 20000, cache_read_input_tokens: 1000, output_tokens: 40 };
const records = [
  user("u1", null, "read it"),
  fragment("a1", "u1", "msg_1", toolUse("t1", "Read", { file_path: "/p/a.ts" })),
  toolResult("r1", "a1", "t1", "x".repeat(4000)),
  withUsage(fragment("a2", "r1", "msg_2", thinking("hmm")), { ...LAST_USAGE, output_tokens: 1 }),
  withUsage(fragment("a3", "a2", "msg_2", text("done")), LAST_USAGE),
  user("u2", "a3", "thanks"),
];

describe("claude-code: the context's unrecorded overhead", () => {
  it("the last response's usage (on its last line) is the recorded step; the overhead is its input minus our count of what was sent with it", () => {
    const s = session(records);
    const leaf = s.requireIndex("u2");
    const t = leafTokenSummary(s, f, leaf);
    assert.equal(t.recordedAt, "a3");
    assert.equal(t.recordedPart, 26040);
    const ctx = f.context(s, leaf);
    assert.deepEqual(ctx.messages.map((m) => m.entryId), ["u1", "a1", "r1", "a2", "u2"]);
    const sentBefore = ctx.messages.slice(0, 3).reduce((n, m) => n + messageTokens(m.message), 0);
    assert.ok(sentBefore > 1000, "the tool result counts");
    assert.deepEqual(t.overhead, { tokens: 26000 - sentBefore, recordedInput: 26000, estimatedMessages: sentBefore, at: "a3", parts: "system prompt, tool definitions, CLAUDE.md and environment context" });
    // What follows the recorded step is estimated on top of it.
    assert.equal(t.estimatedPart, messageTokens(ctx.messages[4].message));
  });

  it("with no usage there is no overhead to show, and the preview says what the file does not hold", () => {
    const s = session(records.map((r) => (r.type === "assistant" ? { ...r, message: { ...(r.message as Raw), usage: undefined } } : r)));
    const t = leafTokenSummary(s, f, s.requireIndex("u2"));
    assert.equal(t.overhead, undefined);
    assert.equal(t.source, "estimate");
    const p = buildPreview(s, "u2", "anthropic");
    assert.match(p.text, /^\/\/ Not in the file: system prompt, tool definitions, CLAUDE\.md and environment context \(no recorded usage/m);
  });

  it("the preview and ase tokens show it as one labelled estimated line", async () => {
    const s = session(records);
    const p = buildPreview(s, "u2", "anthropic");
    assert.match(p.text, /^\/\/ Not in the file \(system prompt, tool definitions, CLAUDE\.md and environment context\), estimated: [\d,]+ tokens of unrecorded overhead = recorded input 26,000 at a3/m);
    const dir = mkdtempSync(join(tmpdir(), "ase-overhead-"));
    try {
      const file = join(dir, "s.jsonl");
      writeFileSync(file, jsonl(records));
      let out = "";
      const code = await main(["tokens", file], { out: (x) => (out += x), err: () => undefined, env: {}, cwd: dir });
      assert.equal(code, 0);
      assert.match(out, /unrecorded overhead [\d.]+k \(estimated\): system prompt, tool definitions, CLAUDE\.md and environment context; recorded input 26\.0k/);
      let json = "";
      await main(["tokens", file, "--json"], { out: (x) => (json += x), err: () => undefined, env: {}, cwd: dir });
      assert.equal((JSON.parse(json) as { overhead: { recordedInput: number } }).overhead.recordedInput, 26000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
