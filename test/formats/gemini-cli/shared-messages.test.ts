import { strict as assert } from "node:assert";
import { join } from "node:path";
import { generateGeminiSession } from "../../../bench/generate-gemini";
import { sessionJson } from "../../../src/core/export/json";
import { sessionMarkdown } from "../../../src/core/export/markdown";
import { createRedactor } from "../../../src/core/export/redact/create-redactor";
import { geminiFormat } from "../../../src/core/formats/gemini-cli/format";
import { GeminiSession } from "../../../src/core/formats/gemini-cli/session";
import { tempDir } from "../../helpers/session-builder";

const FIXTURES = join(process.cwd(), "test", "fixtures", "gemini-cli");

/** Objects reached from more than one node's message: what a checkpoint's reused message shares with the one read before. */
function sharedObjects(s: GeminiSession): number {
  const owner = new Map<object, number>();
  let shared = 0;
  const walk = (v: unknown, node: number): void => {
    if (typeof v !== "object" || v === null) return;
    const seen = owner.get(v);
    if (seen !== undefined) {
      if (seen !== node) shared++;
      return;
    }
    owner.set(v, node);
    for (const x of Object.values(v)) walk(x, node);
  };
  s.replayed.nodes.forEach((n, k) => walk(n.message, k));
  return shared;
}

/**
 * A checkpoint's message that repeats an earlier one is a shallow copy of it (checkpoint-reuse.ts):
 * its parts, tool calls and token counts are the same objects as the earlier message's. That is
 * only safe while nothing that reads a session changes a message; this test is that rule: every
 * reader (contexts, Anthropic form, details, exports) leaves the replayed messages as they were.
 */
describe("Gemini CLI: messages shared between checkpoints are never changed by a reader", () => {
  it("contexts, Anthropic form, details, JSON and Markdown exports leave every message as loaded", async () => {
    const path = join(tempDir(), "session-2026-11-02T09-00-9e000003.jsonl");
    generateGeminiSession({ fixtures: FIXTURES, targetBytes: 3 * 2 ** 20, out: path, seed: 7, resumeEvery: 5, compressEvery: 23, rewindEvery: 9 });
    const s = GeminiSession.open(path);
    const shared = sharedObjects(s);
    assert.ok(shared >= 10, `only ${shared} shared objects: the session does not exercise reuse`);
    const before = JSON.stringify(s.replayed.nodes.map((n) => n.message));
    for (let i = 0; i < s.metas.length; i += 7) {
      const ctx = geminiFormat.context(s, i);
      geminiFormat.anthropic?.(ctx);
      geminiFormat.details?.(s, i);
    }
    await sessionJson(s, createRedactor(), { all: true, redacted: true });
    await sessionMarkdown(s, createRedactor(), { all: true });
    assert.equal(JSON.stringify(s.replayed.nodes.map((n) => n.message)), before);
  });
});
