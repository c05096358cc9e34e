import { strict as assert } from "node:assert";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { formatOf, openSession } from "../../../src/core/formats/registry";
import type { SessionReader } from "../../../src/core/session/session-reader";
import { sessionCost } from "../../../src/core/usage/session-cost";
import { buildPreview } from "../../../src/core/context/preview";
import { renderFormatContext } from "../../../src/core/context/format-context";
import { leafTokenSummary } from "../../../src/core/usage/format-tokens";
import { recorded } from "./helpers";

const FIX = join(process.cwd(), "test", "fixtures", "codex");
const OLD = join(FIX, "handmade", "home", "sessions", "2025", "09", "01");
const pick = (dir: string, part: string) => join(dir, readdirSync(dir).find((n) => n.includes(part)) as string);
/** The recorded rollouts: main thread (text, tools, failed and interrupted turns), compaction, fork. */
const { main: MAIN, compact: COMPACT, fork: FORK } = recorded();

function rows(s: SessionReader) {
  const f = formatOf(s);
  return s.metas.map((m, i) => ({ i, id: m.id, preview: s.table.preview(i), ...f.describe(s, i) }));
}

describe("Codex rows, details, tokens and forks on rollouts recorded with codex-cli 0.169.0", () => {
  it("rows: prompts, reasoning, several tool calls through the neutral summarizer, failing and unknown tools, apply_patch, a failed and an interrupted turn; event_msg never a message", async () => {
    const s = await openSession(MAIN);
    const r = rows(s);
    const by = (p: RegExp) => r.filter((x) => p.test(x.preview));
    assert.deepEqual(r.filter((x) => x.kind === "user").map((x) => x.preview), ["Say hello", "Please run TOOLS: echo, a failing ls, an unknown tool, then a patch", "This turn will FAIL mid-stream", "HANG until interrupted", "After the interruption, say hello again"]);
    assert.deepEqual(r.filter((x) => x.kind === "tool-call").map((x) => x.preview), ["$ echo hi", "$ ls /definitely/not/here", "no_such_tool anything=1", "Patch notes.txt"]);
    const results = r.filter((x) => x.kind === "tool-result");
    assert.deepEqual(results.map((x) => !!x.isError), [false, true, true, true]);
    assert.equal(by(/^\(reasoning\) Running three commands/)[0].label, "Reasoning");
    const failed = r.find((x) => x.label === "Turn failed");
    assert.ok(failed?.isError && /stream disconnected/.test(failed.preview));
    assert.equal(r.filter((x) => x.label === "Turn interrupted").length, 1);
    assert.equal(r.filter((x) => x.label === "Turn aborted").length, 1);
    // Every event_msg is an event, none a user or assistant message.
    for (const x of r) if (s.table.typeAt(x.i) === "event_msg") assert.ok(x.kind === "info" || x.kind === "system", `${x.id} is ${x.kind}`);
  });

  it("details: reasoning summaries shown, encrypted content never decoded; a call and its output linked by call_id", async () => {
    const s = await openSession(MAIN);
    const f = formatOf(s);
    const r = rows(s);
    const reasoning = f.details?.(s, r.find((x) => x.label === "Reasoning")?.i as number);
    assert.ok(reasoning);
    assert.equal(reasoning.blocks[0].kind, "thinking");
    assert.match(reasoning.blocks[0].text ?? "", /Answering briefly/);
    assert.ok(reasoning.meta.some(([k, v]) => k === "encrypted reasoning" && /not decoded/.test(v)));
    assert.ok(!JSON.stringify(reasoning).includes("opaque-"), "the encrypted payload is not decoded");
    const call = f.details?.(s, r.find((x) => x.kind === "tool-call")?.i as number);
    const out = f.details?.(s, r.find((x) => x.kind === "tool-result")?.i as number);
    assert.equal(call?.blocks[0].call?.id, out?.blocks[0].answers);
  });

  it("a compaction is a boundary whose details show its summary and the items it kept; the summary's own assistant item stays a row", async () => {
    const s = await openSession(COMPACT);
    const f = formatOf(s);
    const r = rows(s);
    const b = r.find((x) => x.kind === "boundary");
    assert.ok(b);
    const d = f.details?.(s, b.i);
    assert.match(d?.compaction?.summary ?? "", /Another language model started to solve this problem/);
    assert.ok(d?.meta.some(([k, v]) => k === "kept items" && v === "4"));
    assert.ok(r.some((x) => x.kind === "assistant" && x.preview.startsWith("SUMMARY:")));
  });

  it("usage once per model response (token_usage_record), cached input inside input; a fork adds none of its parent's responses", async () => {
    const main = await openSession(MAIN);
    const withUsage = main.metas.map((_, i) => i).filter((i) => main.table.getUsage(i));
    assert.deepEqual([...new Set(withUsage.map((i) => main.table.typeAt(i)))], ["token_usage_record"]);
    assert.equal(withUsage.length, 5, "five model responses completed (the failed one wrote none)");
    const u = main.table.getUsage(withUsage[0]);
    assert.deepEqual([u?.input, u?.cacheRead, u?.output], [1400 - 1024, 1024, 40]);
    const fork = await openSession(FORK);
    const cost = sessionCost(fork, formatOf(fork));
    assert.equal(cost.steps.length, 1);
    assert.equal(cost.steps[0].model, "gpt-5.5");
    // 376 fresh input, 1024 cached, 40 output at gpt-5.5's $5 / $0.5 / $30 per million.
    assert.ok(Math.abs(cost.total.usd - (376 * 5 + 1024 * 0.5 + 40 * 30) / 1e6) < 1e-9, String(cost.total.usd));
  });

  it("the context's size: the window the file records, recorded usage linked to the response's items, estimates after it", async () => {
    const s = await openSession(MAIN);
    const f = formatOf(s);
    const leaf = f.defaultLeaf(s);
    const t = leafTokenSummary(s, f, leaf);
    assert.equal(t.windowSource, "recorded");
    assert.equal(t.contextWindow, 258400);
    // The last response's usage: 1400 input + 40 output, its reasoning and answer items in the context.
    assert.equal(t.recordedPart, 1440);
    const last = s.metas.map((_, i) => i).filter((i) => s.table.typeAt(i) === "token_usage_record").pop() as number;
    const answer = s.metas.map((_, i) => i).filter((i) => s.table.roleAt(i) === "assistant").pop() as number;
    assert.equal(f.responseId?.(s, answer), f.responseId?.(s, last));
    assert.ok(f.responseId?.(s, last));
  });

  it("the preview shows base_instructions as the system prompt, marked approximate; native leaves it out; anthropic translates calls and outputs", async () => {
    const s = await openSession(MAIN);
    const p = buildPreview(s, undefined, "pi");
    assert.match(p.text, /\/\/ System prompt: session_meta\.base_instructions, APPROXIMATE/);
    const req = p.request as { systemPromptApproximate?: string; messages: unknown[] };
    assert.match(req.systemPromptApproximate ?? "", /^You are/);
    const native = renderFormatContext(s, formatOf(s).defaultLeaf(s), "native") as Record<string, unknown>;
    assert.deepEqual(Object.keys(native), ["messages"]);
    const body = renderFormatContext(s, formatOf(s).defaultLeaf(s), "anthropic") as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
    const blocks = body.messages.flatMap((m) => m.content.map((b) => `${m.role}:${String(b.type)}`));
    assert.ok(blocks.includes("assistant:tool_use") && blocks.includes("user:tool_result") && blocks.includes("assistant:thinking"));
    for (let k = 1; k < body.messages.length; k++) assert.notEqual(body.messages[k].role, body.messages[k - 1].role, "roles alternate");
  });

  it("files: what apply_patch added or changed, relative to the session's cwd", async () => {
    const s = await openSession(MAIN);
    const f = formatOf(s);
    const got = f.files?.(s, s.tree.path(f.defaultLeaf(s)));
    assert.deepEqual(got?.map((a) => [a.path, a.written, a.edited]), [["notes.txt", 1, 0]]);
  });

  it("older builds: usage from token_count when no token_usage_record (a repeated total is no new response); a copied-parent fork's copies are inherited", async () => {
    const fork = await openSession(pick(OLD, "0b.jsonl"));
    const cost = sessionCost(fork, formatOf(fork));
    assert.equal(cost.steps.length, 3);
    assert.equal(cost.steps.filter((x) => x.inheritedFrom === "0198f000-0000-7000-8000-00000000000a").length, 2);
  });

  it("a rollback (thread_rolled_back) leaves the dropped turn as an abandoned branch from its turn_context", async () => {
    const s = await openSession(pick(OLD, "0c.jsonl"));
    const r = rows(s);
    const back = r.find((x) => x.label === "Rollback");
    assert.ok(back);
    const dropped = r.find((x) => x.preview === "A question to take back");
    assert.ok(dropped);
    const leafPath = s.tree.path(s.metas.length - 1);
    assert.ok(!leafPath.includes(dropped.i), "the dropped prompt is off the resumed path");
    assert.ok(leafPath.includes(back.i));
    const parent = s.metas[back.i].parentId;
    assert.equal(s.table.typeAt(s.tree.indexOf(parent as string) as number), "event_msg", "it hangs under the last line of the turn before");
    assert.equal(s.tree.leaves().length, 2);
  });
});
