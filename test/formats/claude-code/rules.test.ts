import { strict as assert } from "node:assert";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { claudeCodeIndexHooks } from "../../../src/core/formats/claude-code/index-hooks";
import { ORPHAN_REMOVED, TOOL_USE_INTERRUPTED } from "../../../src/core/formats/claude-code/messages";
import { clawdcodeFormat } from "../../../src/core/formats/clawdcode/format";
import { MemorySession } from "../../../src/core/session/memory-session";
import { readFirstLines } from "../../../src/core/formats/registry";
import { boundary, compactSummary, fragment, type Raw, sidechain, system, text, toolResult, toolUse, user } from "./lines";

const session = (records: Raw[]) => new MemorySession("claude-code", claudeCodeIndexHooks, records);
const ids = (s: MemorySession, positions: number[]) => positions.map((i) => s.metas[i].id);
const chainOf = (s: MemorySession, id: string) => ids(s, f.chain?.(s, s.requireIndex(id)) ?? []);
const messages = (s: MemorySession, id: string) => f.context(s, s.requireIndex(id)).messages.map((m) => m.message);

describe("claude-code: rules on sessions built in memory", () => {
  it("a broken parent link is a problem naming the line and the missing parent; the cut-off part stays a reachable root; the chain stops at the break", () => {
    const s = session([
      user("u1", null, "first"),
      fragment("a1", "u1", "msg_1", text("one")),
      user("u2", "never-written", "after the break"),
      fragment("a2", "u2", "msg_2", text("two")),
    ]);
    assert.deepEqual(s.problems.map((p) => p.message), ["line 3: parent never-written of u2 is not in the file; its path starts here"]);
    assert.deepEqual(ids(s, s.tree.roots()), ["u1", "u2"]);
    assert.equal(s.metas[f.defaultLeaf(s)].id, "a2");
    assert.deepEqual(chainOf(s, "a2"), ["u2", "a2"]);
    assert.deepEqual(chainOf(s, "a1"), ["u1", "a1"]);
    assert.deepEqual(f.describe(s, 2), { kind: "user", label: "User", typeName: "user", visibility: "user" });
  });

  it("a full compaction's boundary hangs under its logicalParentUuid in the tree; the chain starts at it; a logical parent not in the file is a broken link", () => {
    const recs = [user("u", null, "old"), fragment("a", "u", "msg_a", text("old answer")), boundary("b", "a"), compactSummary("s", "b", "Summary."), user("n", "s", "next")];
    const s = session(recs);
    assert.deepEqual(s.problems, []);
    assert.equal(s.metas[s.tree.parent[s.requireIndex("b")]].id, "a");
    assert.deepEqual(chainOf(s, "n"), ["b", "s", "n"]);
    assert.deepEqual(messages(s, "n"), [{ role: "user", content: [{ type: "text", text: "This session is being continued from a previous conversation that ran out of context. Summary." }, { type: "text", text: "next" }] }]);
    const elsewhere = session(recs.slice(2));
    assert.deepEqual(elsewhere.problems.map((p) => p.message), ["line 1: parent a of b is not in the file; its path starts here"]);
    assert.deepEqual(chainOf(elsewhere, "n"), ["b", "s", "n"]);
    // A /branch copy starts at the boundary by design: no broken link there.
    assert.deepEqual(session(recs.slice(2).map((r) => ({ ...r, forkedFrom: { sessionId: "x", messageUuid: r.uuid } }))).problems, []);
  });

  it("preservedMessages: the kept uuids chained under the anchor, the anchor's other children moved under the last one", () => {
    const recs = [
      user("k1", null, "kept one"),
      fragment("k2", "k1", "msg_k", text("kept two")),
      boundary("b", "k2", { preservedMessages: { anchorUuid: "s", uuids: ["k1", "k2"] } }),
      compactSummary("s", "b", "Summary."),
      user("n", "s", "next"),
    ];
    assert.deepEqual(chainOf(session(recs), "n"), ["b", "s", "k1", "k2", "n"]);
    // A listed uuid missing: no relink at all, as Claude Code does.
    const broken = recs.map((r) => (r.uuid === "b" ? { ...r, compactMetadata: { trigger: "auto", preTokens: 5, preservedMessages: { anchorUuid: "s", uuids: ["k1", "gone"] } } } : r));
    assert.deepEqual(chainOf(session(broken), "n"), ["b", "s", "n"]);
  });

  it("a tool result on a side branch is recovered by its tool_use_id alone, after the response's last fragment, oldest first", () => {
    const r1 = { ...toolResult("r1", "elsewhere-x", "toolu_1", "one"), parentUuid: "u" };
    delete (r1 as Raw).sourceToolAssistantUUID;
    const s = session([
      user("u", null, "go"),
      fragment("f1", "u", "msg_p", toolUse("toolu_1", "Read", { file_path: "a" })),
      fragment("f2", "f1", "msg_p", toolUse("toolu_2", "Read", { file_path: "b" })),
      r1,
      toolResult("r2", "f2", "toolu_2", "two"),
      fragment("e", "r2", "msg_e", text("done")),
    ]);
    assert.equal(s.metas[f.defaultLeaf(s)].id, "e");
    assert.deepEqual(chainOf(s, "e"), ["u", "f1", "f2", "r1", "r2", "e"]);
  });

  it("the 2.1.x layout (fragment, result, fragment, result): one assistant message and one user message; usage kept on the latest fragment only", () => {
    const s = session([
      user("u", null, "go"),
      fragment("f1", "u", "msg_p", toolUse("toolu_1", "Read", {})),
      toolResult("r1", "f1", "toolu_1", "one"),
      fragment("f2", "r1", "msg_p", toolUse("toolu_2", "Read", {}), { message: { id: "msg_p", role: "assistant", model: "m", content: [toolUse("toolu_2", "Read", {})], usage: { input_tokens: 3, output_tokens: 40 } } }),
      toolResult("r2", "f2", "toolu_2", "two"),
    ]);
    const m = messages(s, "r2");
    assert.deepEqual(m.map((x) => (x as { role: string }).role), ["user", "assistant", "user"]);
    assert.equal(((m[2] as { content: unknown[] }).content).length, 2);
    assert.equal(s.metas[1].usage, undefined);
    assert.deepEqual(s.metas[3].usage, { input: 3, output: 40, cacheRead: 0, cacheWrite: 0 });
  });

  it("the leaf: sidechain, progress and trailing system lines never end the chain; with nothing else, the newest message that is not sidechain or meta", () => {
    const s = session([
      user("u", null, "hi"),
      fragment("a", "u", "msg_a", text("hello")),
      system("t", "a", "turn_duration"),
      sidechain(user("x", "t", "helper")),
    ]);
    assert.equal(s.metas[f.defaultLeaf(s)].id, "a");
    // A sub-agent's own file: every line is sidechain, so the fallback takes the newest true leaf.
    const only = session([sidechain(user("x1", null, "helper")), sidechain(fragment("x3", "x1", "msg_x", text("newer"))), sidechain(fragment("x2", "x1", "msg_y", text("ok")))]);
    assert.equal(only.metas[f.defaultLeaf(only)].id, "x2");
    // ... and its lines are its conversation, not hidden as they are inline in a parent session.
    assert.deepEqual(f.describe(only, only.requireIndex("x1")), { kind: "user", label: "User", typeName: "user", visibility: "user" });
    assert.equal(f.describe(only, only.requireIndex("x2")).visibility, "conversation");
    assert.equal(f.describe(s, s.requireIndex("x")).visibility, "all");
  });

  it("pairing repair: a repeated tool_use is dropped (an emptied message says so); a leading orphan result is removed; API-error turns are not sent", () => {
    const s = session([
      toolResult("o", "gone", "toolu_0", "orphan"),
      fragment("a1", "o", "msg_1", toolUse("toolu_1", "Bash", { command: "ls" })),
      toolResult("r1", "a1", "toolu_1", "ok"),
      fragment("a2", "r1", "msg_2", toolUse("toolu_1", "Bash", { command: "ls" })),
      toolResult("r2", "a2", "toolu_1", "ok again"),
      fragment("e", "r2", "msg_3", text("API Error: 500"), { isApiErrorMessage: true, message: { id: "msg_3", role: "assistant", model: "<synthetic>", content: [text("API Error: 500")], usage: { input_tokens: 0, output_tokens: 0 } } }),
      user("u", "e", "try again"),
    ]);
    assert.deepEqual(messages(s, "u"), [
      { role: "user", content: ORPHAN_REMOVED },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }] },
      { role: "user", content: [{ tool_use_id: "toolu_1", type: "tool_result", content: "ok" }] },
      { role: "assistant", content: [{ type: "text", text: TOOL_USE_INTERRUPTED }] },
      { role: "user", content: [{ tool_use_id: "toolu_1", type: "tool_result", content: "ok again" }, { type: "text", text: "try again" }] },
    ]);
    assert.equal(s.metas[5].usage, undefined);
    assert.deepEqual(f.describe(s, 5), { kind: "assistant", label: "API error", typeName: "assistant (<synthetic>)", visibility: "conversation", isError: true });
  });

  it("a conversation line without a uuid is a problem; lines of other types are not entries and no problem", () => {
    const s = session([user("u", null, "hi"), { type: "assistant", parentUuid: "u", message: { role: "assistant", content: [] } }, { type: "tag", tag: "x" }, { type: "brand-new-kind", uuid: "z" }]);
    assert.deepEqual(ids(s, [0]), ["u"]);
    assert.equal(s.metas.length, 1);
    assert.deepEqual(s.problems.map((p) => p.message), ['line 2: a Claude Code assistant line needs a string "uuid"; found nothing (line skipped)']);
  });

  it("detection: Claude Code's envelope and its metadata-first files; never the seed's clawdcode lines, pi's or seed-000's files", () => {
    const first = (path: string, objects: unknown[]) => ({ path, objects });
    assert.ok(f.detect(first("/x/s.jsonl", [user("u", null, "hi")])));
    assert.ok(f.detect(first("/x/s.jsonl", [{ type: "summary", summary: "t", leafUuid: "u" }, { type: "file-history-snapshot", messageId: "u", snapshot: {} }, undefined, user("u", null, "hi")])));
    const seedLine = { uuid: "c", parentUuid: null, sessionId: "s", timestamp: "2026-01-01T00:00:00Z", type: "user", cwd: "/", version: "1", message: { role: "user", content: "hi" } };
    assert.ok(!f.detect(first("/x/s.jsonl", [seedLine])));
    assert.ok(clawdcodeFormat.detect(first("/x/s.jsonl", [seedLine])));
    assert.ok(!clawdcodeFormat.detect(first("/x/s.jsonl", [user("u", null, "hi")])));
    assert.ok(!f.detect(first("/x/s.jsonl", [{ type: "session", version: 3, id: "p", timestamp: "t", cwd: "/" }])));
    assert.ok(!f.detect(first("/x/s.jsonl", [{ type: "summary", summary: "t", leafUuid: "u" }, { id: "1", parentId: null, type: "user", content: "x", timestamp: 1 }])));
    const others = join(process.cwd(), "test", "fixtures");
    const walk = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? walk(join(d, n)) : n.endsWith(".jsonl") ? [join(d, n)] : []));
    for (const dir of ["pi", "seed-000", "clawdcode"]) for (const file of walk(join(others, dir))) assert.ok(!f.detect(readFirstLines(file)), `${file} claimed as Claude Code`);
  });
});
