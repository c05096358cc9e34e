import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { COMPACTION_SUMMARY_PREFIX, COMPACTION_SUMMARY_SUFFIX } from "../../src/core/formats/pi/context/convert";
import type { RetryPolicy } from "../../src/core/compaction/summarizer";
import { Session } from "../../src/core/formats/pi/pi-session";
import { refContext, refLoad } from "../helpers/reference-context";
import { assistant, entry, header, type Raw, toolResult, user, writeSession } from "../helpers/session-builder";

/** Retries without waiting, so failure tests take milliseconds. */
export const FAST_RETRY: Partial<RetryPolicy> = { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2, sleep: async () => {} };

/** Small settings so a few short messages already need a cut (at u0000003, not a split turn). */
export const SMALL = { reserveTokens: 2000, keepRecentTokens: 250 };

const words = (n: number, w: string) => Array.from({ length: n }, (_, i) => `${w}${i}`).join(" ");

/**
 * Three turns with tool calls (read /src/a.ts, edit /src/b.ts, write /src/c.ts),
 * a model change, and a final long turn. About 700 estimated tokens in all.
 */
export function turnsSession(extra: Raw[] = []): string {
  return writeSession([
    header(),
    entry("model_change", "m0000001", null, { provider: "anthropic", modelId: "claude-sonnet-4-5" }),
    user("u0000001", "m0000001", `Please fix the parser. ${words(60, "spec")}`),
    assistant("a0000001", "u0000001", "Reading a.ts", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "/src/a.ts" } }] }),
    toolResult("t0000001", "a0000001", "c1", "read", `export const a = 1; ${words(120, "line")}`),
    assistant("a0000002", "t0000001", "Editing b.ts", { toolCalls: [{ id: "c2", name: "edit", arguments: { path: "/src/b.ts", oldText: "x", newText: "y" } }] }),
    toolResult("t0000002", "a0000002", "c2", "edit", "Error: oldText not found", true),
    assistant("a0000003", "t0000002", `Done with the first fix. ${words(40, "note")}`),
    user("u0000002", "a0000003", `Now write c.ts. ${words(40, "ask")}`),
    assistant("a0000004", "u0000002", "Writing", { toolCalls: [{ id: "c3", name: "write", arguments: { path: "/src/c.ts", content: words(60, "code") } }] }),
    toolResult("t0000004", "a0000004", "c3", "write", "wrote 400 bytes"),
    assistant("a0000005", "t0000004", `c.ts is written. ${words(50, "explain")}`),
    user("u0000003", "a0000005", `Last: run the tests. ${words(30, "more")}`),
    assistant("a0000006", "u0000003", "Running", { toolCalls: [{ id: "c4", name: "bash", arguments: { command: "npm test" } }] }),
    toolResult("t0000006", "a0000006", "c4", "bash", `ok ${words(80, "pass")}`),
    assistant("a0000007", "t0000006", `All tests pass. ${words(30, "fine")}`),
    ...extra,
  ]);
}

/** u1 -> a1, then the branch u2 a2[edit] t2 a3 (the last line): what a move back to a1 leaves. */
export function branchedLines(): Raw[] {
  return [
    header(),
    user("u1", null, "start"),
    assistant("a1", "u1", "ok"),
    user("u2", "a1", "try plan A"),
    assistant("a2", "u2", "editing", { toolCalls: [{ id: "c1", name: "edit", arguments: { path: "/src/x.ts", oldText: "a", newText: "b" } }] }),
    toolResult("t2", "a2", "c1", "edit", "edited"),
    assistant("a3", "t2", "plan A done"),
  ];
}

/**
 * The file must be the bytes it was plus exactly one valid JSON line, and the context
 * for the new entry must be summary + the old context from firstKeptEntryId on.
 */
export async function expectOneCompactionLine(file: string, before: Buffer, summaryIncludes?: string): Promise<Raw> {
  const after = readFileSync(file);
  assert.ok(after.subarray(0, before.length).equals(before), "old bytes unchanged");
  const added = after.subarray(before.length).toString("utf8");
  assert.ok(added.endsWith("\n") && added.indexOf("\n") === added.length - 1, "exactly one new line");
  const e = JSON.parse(added) as Raw;
  assert.equal(e.type, "compaction");
  assert.match(String(e.id), /^[0-9a-f]{8}$/);
  if (summaryIncludes) assert.ok(String(e.summary).includes(summaryIncludes), "summary text");

  const oldSession = await Session.load(file);
  const leafBefore = String(e.parentId);
  const old = buildContext(oldSession, leafBefore);
  const ctx = buildContext(oldSession, String(e.id));
  const keptFrom = oldSession.tree.path(oldSession.requireIndex(leafBefore)).findIndex((i) => oldSession.metas[i].id === e.firstKeptEntryId);
  assert.ok(keptFrom >= 0, "firstKeptEntryId is on the path");
  const keptIds = new Set(oldSession.tree.path(oldSession.requireIndex(leafBefore)).slice(keptFrom).map((i) => oldSession.metas[i].id));
  const expected = old.parts.filter((p) => keptIds.has(p.entryId)).map((p) => p.llm);
  assert.equal(ctx.parts[0].kind, "compaction-summary");
  const first = ctx.parts[0].llm.content as Array<{ text: string }>;
  assert.equal(first[0].text, COMPACTION_SUMMARY_PREFIX + String(e.summary) + COMPACTION_SUMMARY_SUFFIX);
  assert.deepEqual(ctx.parts.slice(1).map((p) => p.llm), expected);
  assert.notEqual(oldSession.metas[oldSession.requireIndex(String(e.firstKeptEntryId))].role, "toolResult");
  // The naive reference reader agrees.
  assert.deepEqual(refContext(refLoad(file), String(e.id)).messages, ctx.parts.map((p) => p.llm));
  return e;
}

export function expectUnchanged(file: string, before: Buffer): void {
  assert.ok(readFileSync(file).equals(before), "file is byte-identical");
}
