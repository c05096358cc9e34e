import { strict as assert } from "node:assert";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CancelledError, SummaryError } from "../../../src/core/compaction/llm-errors";
import type { RetryPolicy } from "../../../src/core/compaction/summarizer";
import { compactClawdcode, type ClawdcodeCompactOptions } from "../../../src/core/formats/clawdcode/compaction";
import { buildClawdcodeContext } from "../../../src/core/formats/clawdcode/context";
import { clawdcodeFormat } from "../../../src/core/formats/clawdcode/format";
import { NothingWrittenError } from "../../../src/core/store/append-line";
import { StaleSessionError } from "../../../src/core/session/jsonl-session";
import { FakeAnthropic, type FakeReply } from "../../compaction/fake-anthropic";
import { withFaults } from "../../helpers/faulty-fs";
import { assistant, jsonl, needSeed002, type Raw, loadFile, SEED_002_DIR, tenMessages, toolResult, toolUse, user } from "./lines";

const KEY = "sk-test-key";
const FAST_RETRY: Partial<RetryPolicy> = { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, sleep: async () => {} };
const NOW = new Date("2026-03-05T12:00:00.000Z");

describe("clawdcode: compaction written to the file (summarizer against a fake Messages API)", () => {
  let fake: FakeAnthropic | undefined;
  let dir: string;
  let cwd: string;
  let file: string;

  /** Ten messages of a session whose cwd holds the files its tools touched. */
  function records(): Raw[] {
    const r = tenMessages("ci.yml");
    return r.map((x) => ({ ...x, cwd }));
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ase-clawd-compact-"));
    cwd = join(dir, "proj");
    mkdirSync(cwd);
    writeFileSync(join(cwd, "ci.yml"), "jobs:\n  test: {}\n");
    mkdirSync(join(dir, "store"));
    file = join(dir, "store", "s.jsonl");
    writeFileSync(file, jsonl(records()));
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function compact(replies: FakeReply[], opts: ClawdcodeCompactOptions = {}) {
    fake = await FakeAnthropic.start(replies, { apiKey: KEY });
    const s = await loadFile(file);
    return compactClawdcode(s, { llm: { apiKey: KEY, baseURL: fake.url, budgets: { idleMs: 5000 }, retry: FAST_RETRY }, now: () => NOW, project: [cwd], ...opts });
  }

  function newLines(before: Buffer): Raw[] {
    const after = readFileSync(file);
    assert.deepEqual(after.subarray(0, before.length), before, "the old bytes are untouched");
    return after.subarray(before.length).toString("utf8").trim().split("\n").map((l) => JSON.parse(l) as Raw);
  }

  it("success: boundary, summary and the kept message appended in one piece; read back, the context is summary + kept", async () => {
    const before = readFileSync(file);
    const out = await compact([{ kind: "message", text: "## Goal\nCI SUMMARY", chunks: 3 }]);
    const lines = newLines(before);
    assert.equal(lines.length, 3);
    const [b, s, k] = lines;
    assert.deepEqual(
      { uuid: b.uuid, parentUuid: b.parentUuid, type: b.type, subtype: b.subtype, timestamp: b.timestamp, cwd: b.cwd, compactMetadata: b.compactMetadata },
      { uuid: out.boundaryUuid, parentUuid: "a4", type: "system", subtype: "compact_boundary", timestamp: NOW.toISOString(), cwd, compactMetadata: { trigger: "manual", preTokens: 1257, postTokens: out.tokensAfter, filesIncluded: ["ci.yml"] } },
    );
    assert.deepEqual({ parentUuid: s.parentUuid, type: s.type, isCompactSummary: s.isCompactSummary, message: s.message }, { parentUuid: b.uuid, type: "user", isCompactSummary: true, message: { role: "user", content: "## Goal\nCI SUMMARY" } });
    // The kept message: a new uuid chained to the summary; its recorded usage is not copied.
    assert.equal(k.parentUuid, s.uuid);
    assert.notEqual(k.uuid, "a4");
    assert.deepEqual(k.message, { role: "assistant", content: "The test job passed.", model: "claude-sonnet-4-5" });
    assert.deepEqual(out.keptUuids, [k.uuid]);
    assert.deepEqual(out.plan.droppedOrphans, ["r2"]);
    assert.equal(out.tokensAfter, Math.ceil("## Goal\nCI SUMMARY".length / 4) + Math.ceil("The test job passed.".length / 4));

    const again = await loadFile(file);
    assert.equal(again.problemCount, 0);
    const leaf = clawdcodeFormat.defaultLeaf(again);
    assert.equal(again.table.idAt(leaf), out.leafUuid);
    const ctx = buildClawdcodeContext(again, leaf);
    assert.equal(ctx.boundary, out.boundaryUuid);
    assert.deepEqual(ctx.items.map((i) => i.message), [{ role: "user", content: "## Goal\nCI SUMMARY" }, { role: "assistant", content: "The test job passed." }]);
    assert.equal(clawdcodeFormat.describe(again, again.requireIndex(out.boundaryUuid)).kind, "boundary");
    assert.equal(again.metas[again.requireIndex(out.boundaryUuid)].tokensBefore, 1257);

    // The prompt: the summarized transcript and the file as it is on disk; not the kept message.
    assert.equal(fake!.requests.length, 1);
    const prompt = fake!.requests[0].prompt;
    assert.ok(prompt.includes("[Assistant tool call]: bash({\"command\":\"act -j test\"})"));
    assert.ok(prompt.includes('<file path="ci.yml">\njobs:\n  test: {}\n</file>'));
    assert.ok(!prompt.includes("The test job passed."));
    assert.equal(fake!.requests[0].body.model, "claude-sonnet-4-5");
  });

  it("a summarizer failure (500 after the retries) falls back: 30% kept with the failure summary, no files", async () => {
    const before = readFileSync(file);
    const events: string[] = [];
    const out = await compact([{ kind: "error", status: 500 }, { kind: "error", status: 500 }], { onProgress: (p) => events.push(p.type) });
    assert.ok(out.fallbackReason);
    assert.ok(events.includes("fallback"));
    const lines = newLines(before);
    assert.equal(lines.length, 2 + 3);
    assert.deepEqual((lines[0].compactMetadata as Raw).filesIncluded, []);
    assert.match(String((lines[1].message as Raw).content), /^\[Compaction summary unavailable\] The 7 earliest message\(s\) .*\(.*500/);
    const again = await loadFile(file);
    const ctx = buildClawdcodeContext(again, clawdcodeFormat.defaultLeaf(again));
    assert.deepEqual(ctx.items.slice(1).map((i) => i.message), [
      { role: "assistant", content: [{ type: "tool_use", id: "call_2", name: "bash", input: { command: "act -j test" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_2", content: "Job succeeded" }] },
      { role: "assistant", content: "The test job passed." },
    ]);
  });

  it("no fallback for a wrong key (401), for fallback: false, or when cancelled: nothing written", async () => {
    const before = readFileSync(file);
    await assert.rejects(compact([{ kind: "error", status: 401 }]), (e: unknown) => e instanceof SummaryError && e.kind === "auth");
    await fake!.close();
    await assert.rejects(compact([{ kind: "error", status: 500 }, { kind: "error", status: 500 }], { fallback: false }), (e: unknown) => e instanceof SummaryError && e.kind === "server");
    await fake!.close();
    const ctl = new AbortController();
    await assert.rejects(compact([{ kind: "hang" }], { signal: ctl.signal, onProgress: (p) => p.type === "request" && ctl.abort() }), CancelledError);
    assert.deepEqual(readFileSync(file), before);
  });

  it("no API key: refused before any request; nothing to compact (one message): refused", async () => {
    const before = readFileSync(file);
    await assert.rejects(compactClawdcode(await loadFile(file), {}), /no API key/);
    writeFileSync(file, jsonl([user("u1", null, "only")]));
    await assert.rejects(compact([]), /nothing to compact: the context has 1 message/);
    assert.equal(fake!.requests.length, 0);
    writeFileSync(file, before);
  });

  it("a session read only in part (a first look at a large file) is refused", async () => {
    const before = readFileSync(file);
    const s = await loadFile(file);
    Object.defineProperty(s, "complete", { value: false });
    await assert.rejects(compactClawdcode(s, { llm: { apiKey: KEY } }), /only the first part of the file is read/);
    assert.deepEqual(readFileSync(file), before);
  });

  it("an injected short write (full disk) is undone: the source is byte-identical", async () => {
    const before = readFileSync(file);
    fake = await FakeAnthropic.start([{ kind: "message", text: "SUM" }], { apiKey: KEY });
    const s = await loadFile(file);
    await withFaults({ match: (p) => p === file, writeLimit: 40 }, async () => {
      await assert.rejects(compactClawdcode(s, { llm: { apiKey: KEY, baseURL: fake!.url, retry: FAST_RETRY } }), NothingWrittenError);
    });
    assert.deepEqual(readFileSync(file), before);
  });

  it("through the one append road: the session holds its new lines after, and a retry after a cut-back short write is not refused", async () => {
    const before = readFileSync(file);
    fake = await FakeAnthropic.start([{ kind: "message", text: "SUM" }, { kind: "message", text: "SUM AGAIN" }], { apiKey: KEY });
    const s = await loadFile(file);
    const llm = { apiKey: KEY, baseURL: fake.url, retry: FAST_RETRY };
    await withFaults({ match: (p) => p === file, writeLimit: 40 }, async () => {
      await assert.rejects(compactClawdcode(s, { llm }), NothingWrittenError);
    });
    assert.deepEqual(readFileSync(file), before, "cut back to the exact bytes");
    // Same bytes, a new mtime: the session takes the file's stamp after its own cut-back.
    const out = await compactClawdcode(s, { llm });
    assert.equal(newLines(before).length, 2 + out.keptUuids.length);
    for (const id of [out.boundaryUuid, out.summaryUuid, out.leafUuid]) assert.notEqual(s.tree.indexOf(id), undefined, `${id} read into the session`);
    assert.equal(clawdcodeFormat.defaultLeaf(s), s.tree.indexOf(out.leafUuid), "the new leaf is the session's default leaf");
  });

  it("the file changed since it was read (the agent appended): nothing of ours is written", async () => {
    fake = await FakeAnthropic.start([{ kind: "message", text: "SUM" }], { apiKey: KEY });
    const s = await loadFile(file);
    const extra = JSON.stringify(user("u9", "a4", "meanwhile")) + "\n";
    appendFileSync(file, extra);
    const grown = readFileSync(file);
    await assert.rejects(compactClawdcode(s, { llm: { apiKey: KEY, baseURL: fake.url, retry: FAST_RETRY } }), StaleSessionError);
    assert.deepEqual(readFileSync(file), grown);
    assert.equal(fake.requests.length, 0, "checked before the summary is asked for");
  });

  it("a file ending in a torn line: our lines start on a line of their own", async () => {
    appendFileSync(file, '{"uuid":"torn');
    const before = readFileSync(file);
    await compact([{ kind: "message", text: "SUM" }]);
    const after = readFileSync(file, "utf8");
    const tail = after.slice(before.length);
    assert.ok(tail.startsWith("\n{"));
    const s = await loadFile(file);
    assert.equal(buildClawdcodeContext(s, clawdcodeFormat.defaultLeaf(s)).items[0].message.content, "SUM");
  });

  it("seed-002: compacting the first nine lines of the compaction fixture gives the golden's summary + kept message", async function () {
    needSeed002(this);
    const golden = JSON.parse(readFileSync(join(SEED_002_DIR, "compaction-orphan.golden.json"), "utf8")) as { file: string; context: { messages: Array<{ content: string }> } };
    const src = readFileSync(join(SEED_002_DIR, golden.file), "utf8").split("\n").slice(0, 9);
    writeFileSync(file, `${src.join("\n")}\n`);
    const before = readFileSync(file);
    const out = await compact([{ kind: "message", text: golden.context.messages[0].content }], { readFiles: false });
    const s = await loadFile(file);
    const ctx = buildClawdcodeContext(s, clawdcodeFormat.defaultLeaf(s));
    assert.deepEqual(ctx.items.map((i) => i.message), golden.context.messages.slice(0, 2));
    assert.deepEqual(out.plan.droppedOrphans, ["bbbb0002-0000-4000-8000-000000000008"]);
    assert.equal(newLines(before)[0].parentUuid, "bbbb0002-0000-4000-8000-000000000009");
  });
});
