import { strict as assert } from "node:assert";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildClawdcodeContext } from "../../../src/core/formats/clawdcode/context";
import { clawdcodeFormat } from "../../../src/core/formats/clawdcode/format";
import { NewFileError } from "../../../src/core/store/atomic-file";
import { withFaults } from "../../helpers/faulty-fs";
import { assistant, boundary, CWD, jsonl, memory, loadFile, SESSION_ID, summary, system, toolResult, toolUse, user } from "./lines";

describe("clawdcode: index, describe, info", () => {
  const s = memory([
    user("u1", null, "  List\n the   TODOs  "),
    assistant("a1", "u1", "Two of them.", { input_tokens: 640, output_tokens: 18 }),
    toolUse("t1", "a1", "call_1", "grep", { pattern: "TODO" }),
    toolResult("r1", "t1", "call_1", "", "no such dir"),
    system("s1", "r1", "Model switched"),
    boundary("b1", "s1", 3250),
    summary("c1", "b1", "[Summary] work so far"),
    { uuid: "x1", parentUuid: "c1", type: "attachment", sessionId: SESSION_ID, timestamp: "2026-03-01T10:00:59.000Z" },
    { parentUuid: "x1", type: "user", message: { role: "user", content: "no uuid" } },
  ]);

  it("tree from uuid/parentUuid; a line without a uuid is a problem naming its line", () => {
    assert.equal(s.metas.length, 8);
    assert.equal(s.metas[1].parentId, "u1");
    assert.equal(s.metas[0].parentId, null);
    assert.equal(s.problemCount, 1);
    assert.match(s.problems[0].message, /^line 9: a clawdcode line needs a string "uuid"; found nothing/);
  });

  it("time from the ISO timestamp, previews collapsed, chars/4 estimates, roles", () => {
    assert.equal(s.metas[7].time, Date.parse("2026-03-01T10:00:59.000Z"));
    assert.equal(s.metas[0].preview, "List the TODOs");
    assert.equal(s.metas[2].preview, 'Grep "TODO"');
    assert.equal(s.metas[3].preview, "error: no such dir");
    assert.equal(s.metas[0].estimate, Math.ceil("  List\n the   TODOs  ".length / 4));
    assert.equal(s.metas[4].estimate, 0);
    // What the model reads: the tool's name and input; a result's output (this one is empty).
    assert.equal(s.metas[2].estimate, Math.ceil(("grep".length + '{"pattern":"TODO"}'.length) / 4));
    assert.equal(s.metas[3].estimate, 0);
    assert.equal(s.metas[1].estimate, Math.ceil("Two of them.".length / 4));
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => s.metas[i].role), ["user", "assistant", "assistant", "user", "system"]);
  });

  it("assistant usage and model, tool calls, boundary preTokens", () => {
    assert.deepEqual(s.metas[1].usage, { input: 640, output: 18, cacheRead: 0, cacheWrite: 0 });
    assert.equal(s.metas[1].model, "claude-sonnet-4-5");
    assert.equal(s.metas[0].usage, undefined);
    assert.equal(s.metas[2].toolCalls, 1);
    assert.equal(s.metas[5].tokensBefore, 3250);
  });

  it("describe: neutral kinds, labels, visibility, tool errors", () => {
    const d = (i: number) => clawdcodeFormat.describe(s, i);
    assert.deepEqual(d(0), { kind: "user", label: "User", typeName: "user", visibility: "user" });
    assert.deepEqual(d(1), { kind: "assistant", label: "Assistant", typeName: "assistant", visibility: "conversation" });
    assert.deepEqual(d(2), { kind: "tool-call", label: "Tool call", typeName: "tool_use", visibility: "conversation" });
    assert.deepEqual(d(3), { kind: "tool-result", label: "Tool result", typeName: "tool_result", visibility: "conversation", isError: true });
    assert.deepEqual(d(4), { kind: "info", label: "System", typeName: "system", visibility: "all" });
    assert.deepEqual(d(5), { kind: "boundary", label: "Compaction", typeName: "compact_boundary", visibility: "conversation" });
    assert.deepEqual(d(6), { kind: "summary", label: "Compaction summary", typeName: "compact summary", visibility: "conversation" });
    assert.deepEqual(d(7), { kind: "other", label: "Other", typeName: "attachment", visibility: "all" });
    const ok = memory([toolUse("t", null, "c", "x", {}), toolResult("r", "t", "c", "fine")]);
    assert.equal(clawdcodeFormat.describe(ok, 1).isError, undefined);
  });

  it("describe reads a line only to confirm a summary under a boundary or an error result (filters describe every line)", () => {
    const recs = [
      user("u1", null, "q"),
      toolUse("t1", "u1", "c1", "read", {}),
      toolResult("r1", "t1", "c1", "error: looks like one, is not"),
      toolResult("r2", "r1", "c1", "fine"),
      boundary("b1", "r2", 5),
      summary("c1", "b1", "sum"),
      user("u2", "c1", "after"),
      toolResult("r3", "u2", "c1", "", "real failure"),
    ];
    const m = memory(recs);
    const reads: number[] = [];
    const counting = Object.assign(Object.create(m) as typeof m, { entryAt: (i: number) => (reads.push(i), m.entryAt(i)) });
    const kinds = recs.map((_, i) => clawdcodeFormat.describe(counting, i));
    assert.deepEqual(kinds.map((d) => d.kind), ["user", "tool-call", "tool-result", "tool-result", "boundary", "summary", "user", "tool-result"]);
    assert.deepEqual(kinds.map((d) => d.isError ?? false), [false, false, false, false, false, false, false, true]);
    assert.deepEqual(reads, [2, 5, 7]);
  });

  it("info: sessionId, cwd, agent version and created from the lines", () => {
    assert.deepEqual(clawdcodeFormat.info(s), { id: SESSION_ID, cwd: CWD, agentVersion: "0.4.2", created: s.entryAt(0).timestamp });
    assert.deepEqual(clawdcodeFormat.info(memory([], "/x/projects/p/abc.jsonl")), { id: "abc", cwd: "" });
  });
});

describe("clawdcode: files", () => {
  it("read / written / edited from tool_use names; a boundary's filesIncluded as read from the summary; first touch order", () => {
    const s = memory([
      user("u1", null, "go"),
      toolUse("t1", "u1", "c1", "Read", { file_path: "a.ts" }),
      toolUse("t2", "t1", "c2", "write", { path: "b.ts" }),
      toolUse("t3", "t2", "c3", "MultiEdit", { path: "a.ts" }),
      toolUse("t4", "t3", "c4", "bash", { command: "cat c.ts" }),
      boundary("b1", "t4", 10, { filesIncluded: ["a.ts", "d.ts"] }),
      toolUse("t5", "b1", "c5", "str_replace", { path: "d.ts" }),
    ]);
    const all = s.metas.map((_, i) => i);
    assert.deepEqual(clawdcodeFormat.files!(s, all), [
      { path: "a.ts", read: 1, written: 0, edited: 1, fromSummary: ["read"], firstEntryId: "t1" },
      { path: "b.ts", read: 0, written: 1, edited: 0, fromSummary: [], firstEntryId: "t2" },
      { path: "d.ts", read: 0, written: 0, edited: 1, fromSummary: ["read"], firstEntryId: "b1" },
    ]);
    assert.deepEqual(clawdcodeFormat.files!(s, [0, 4]), []);
  });
});

describe("clawdcode: detect", () => {
  const line = user("u1", null, "hi");
  const det = (objects: unknown[], path = "/tmp/s.jsonl") => clawdcodeFormat.detect({ path, objects });

  it("a clawdcode line anywhere; a line of another format never", () => {
    assert.equal(det([line]), true);
    assert.equal(det([undefined, toolUse("t", null, "c", "x", {})]), true);
    // Claude Code's envelope: same fields plus isSidechain/userType.
    assert.equal(det([{ ...line, isSidechain: false, userType: "external" }]), false);
    assert.equal(det([{ type: "session", version: 3, id: "x", timestamp: "", cwd: "/" }]), false);
    assert.equal(det([{ id: "a", parentId: null, timestamp: 1, type: "user", content: "x" }]), false);
    assert.equal(det([{ ...line, parentUuid: 5 }]), false);
    assert.equal(det([{ ...line, type: "attachment" }]), false);
    assert.equal(det([]), false);
    assert.equal(det(["a string"]), false);
  });

  it("under .clawdcode/projects/ a line of an unknown type, or without a message, still belongs", () => {
    const { message: _m, ...bare } = line;
    const store = "/home/ana/.clawdcode/projects/-home-ana-app/x.jsonl";
    assert.equal(det([{ ...bare, type: "attachment" }], store), true);
    assert.equal(det([{ ...bare, type: "attachment" }]), false);
  });
});

describe("clawdcode: fork", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "ase-clawd-fork-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const records = [
    user("u1", null, "q"),
    toolUse("t1", "u1", "call_1", "read", { path: "a.ts" }),
    toolResult("r1", "t1", "call_1", "x"),
    assistant("a1", "r1", "old branch"),
    assistant("a2", "r1", "new branch", { input_tokens: 5, output_tokens: 1 }),
  ];

  it("a new <sessionId>.jsonl with the path root..entry: same uuids and chain, new sessionId, same context; source byte-identical", async () => {
    const src = join(dir, `${SESSION_ID}.jsonl`);
    writeFileSync(src, jsonl(records));
    const before = readFileSync(src);
    const s = await loadFile(src);
    const out = clawdcodeFormat.writer!.fork(s, "a2");
    assert.deepEqual(readFileSync(src), before);
    assert.equal(out.path, join(dir, `${out.sessionId}.jsonl`));
    assert.notEqual(out.sessionId, SESSION_ID);
    assert.equal(out.entryCount, 4);
    const f = await loadFile(out.path);
    assert.deepEqual(f.metas.map((m) => [m.id, m.parentId]), [["u1", null], ["t1", "u1"], ["r1", "t1"], ["a2", "r1"]]);
    assert.ok([0, 1, 2, 3].every((i) => f.entryAt(i).sessionId === out.sessionId));
    // Everything else as it was, key order included.
    assert.equal(JSON.stringify(f.entryAt(3)), JSON.stringify({ ...records[4], sessionId: out.sessionId }));
    assert.deepEqual(buildClawdcodeContext(f, 3).items.map((i) => i.message), buildClawdcodeContext(s, 4).items.map((i) => i.message));
    assert.equal(clawdcodeFormat.info(f).id, out.sessionId);
  });

  it("a failed write leaves no file and no temp file; the source is untouched", async () => {
    const src = join(dir, `${SESSION_ID}.jsonl`);
    writeFileSync(src, jsonl(records));
    const before = readFileSync(src);
    const s = await loadFile(src);
    await withFaults({ match: (p) => p.endsWith(".ase-tmp"), writeLimit: 10 }, () => {
      assert.throws(() => clawdcodeFormat.writer!.fork(s, "a1"), NewFileError);
    });
    assert.deepEqual(readdirSync(dir), [`${SESSION_ID}.jsonl`]);
    assert.deepEqual(readFileSync(src), before);
  });
});

describe("clawdcode: the indexed reader", () => {
  it("a file indexed on two threads gives the index of one thread (worker finds the hooks by format id)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ase-clawd-threads-"));
    try {
      const file = join(dir, `${SESSION_ID}.jsonl`);
      const recs: Array<Record<string, unknown>> = [];
      let parent: string | null = null;
      for (let k = 0; k < 3000; k++) {
        const id = `e${k}`;
        const r: Record<string, unknown> =
          k % 3 === 0 ? user(id, parent, `question ${k}`) : k % 3 === 1 ? toolUse(id, parent, `c${k}`, "read", { path: `f${k}.ts` }) : toolResult(id, parent, `c${k - 1}`, `out ${k}`);
        recs.push(r);
        parent = id;
      }
      recs.push(assistant("last", parent, "done", { input_tokens: 7, output_tokens: 3 }));
      writeFileSync(file, jsonl(recs));
      const one = await clawdcodeFormat.load(file, { secondThread: false });
      const two = await clawdcodeFormat.load(file, { secondThread: true });
      assert.equal((two as unknown as { threads: number }).threads, 2, (two as unknown as { workerFailure?: string }).workerFailure);
      const row = (m: (typeof one.metas)[number]) => [m.id, m.parentId, m.type, m.role, m.preview, m.estimate, m.toolCalls, m.line, JSON.stringify(m.usage)];
      assert.deepEqual(two.metas.map(row), one.metas.map(row));
      assert.equal(two.problemCount, 0);
      assert.equal(clawdcodeFormat.context(two, clawdcodeFormat.defaultLeaf(two)).messages.length, 3001);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
