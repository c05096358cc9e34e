import { strict as assert } from "node:assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { detectFormat, openSession, readFirstLines } from "../../../src/core/formats/registry";
import { seed000Format } from "../../../src/core/formats/seed-000/format";
import type { SessionReader } from "../../../src/core/session/session-reader";
import { HookedSession } from "../../../src/core/session/jsonl-session";
import { assistant, load, OWN_FIXTURES, toolCall, toolResult, user } from "./helpers";

const jsonl = (lines: unknown[]) => `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`;

/** Every column the index keeps, per entry, for comparing two reads. */
function picture(s: SessionReader) {
  return s.metas.map((m) => [m.id, m.parentId, m.type, m.role, m.time, m.line, m.offset, m.length, m.preview, m.estimate, m.model, JSON.stringify(m.usage), m.toolCalls]);
}

describe("seed-000 files through the registry and the indexed reader", () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "ase-seed000-read-"))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("the registry picks seed-000 for our fixture, and pi for a file with a pi header", () => {
    assert.equal(detectFormat(readFirstLines(join(OWN_FIXTURES, "branchy.jsonl"))).id, "seed-000");
    const pi = join(dir, "pi.jsonl");
    writeFileSync(pi, jsonl([{ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/" }]));
    assert.equal(detectFormat(readFirstLines(pi)).id, "pi");
  });

  it("blank, broken and bad lines: skipped, each reported with its line number; the rest read", async () => {
    const file = join(dir, "damaged.jsonl");
    writeFileSync(
      file,
      jsonl([
        user("u1", null, "hi", { cwd: "/p" }),
        "",
        '{"id":"x1","parentId":"u1",',
        { id: "x2", parentId: "u1", timestamp: 1, type: "note", content: "?" },
        toolCall("c1", "u1", "ls", {}),
        "[1,2]",
        toolResult("r1", "c1", "a.ts"),
        assistant("a1", "r1", "one file"),
      ]),
    );
    const s = await load(file);
    assert.deepEqual(s.metas.map((m) => [m.id, m.line]), [["u1", 1], ["c1", 5], ["r1", 7], ["a1", 8]]);
    const problems = s.problems.map((p) => p.line);
    assert.deepEqual(problems, [3, 4, 6]);
    assert.match(s.problems[1].message, /line 4: .*type is not one of user\|assistant\|tool_call\|tool_result/);
    const ctx = seed000Format.context(s, seed000Format.defaultLeaf(s));
    assert.deepEqual(ctx.messages.map((m) => m.entryId), ["u1", "c1", "r1", "a1"]);
    assert.deepEqual(seed000Format.info(s), { id: "damaged", cwd: "/p" });
  });

  it("entries read by byte range are the lines' records", async () => {
    const s = await load(join(OWN_FIXTURES, "branchy.jsonl"));
    assert.ok(s instanceof HookedSession);
    assert.equal(s.entryAt(s.requireIndex("r3b")).content, "Error: read timed out");
  });

  it("a second thread indexes the second half with the same hooks: the same index", async () => {
    const lines: unknown[] = [user("u0", null, "start", { cwd: "/p" })];
    let parent = "u0";
    for (let k = 1; k <= 3000; k++) {
      const id = `e${k}`;
      lines.push(k % 4 === 1 ? toolCall(id, parent, "run", { k }) : k % 4 === 2 ? toolResult(id, parent, `out ${k}`) : assistant(id, parent, `step ${k}`, { model: "claude-sonnet-4-5", usage: { input_tokens: k, output_tokens: 2 } }));
      parent = k % 50 === 0 ? "u0" : id;
    }
    const file = join(dir, "long.jsonl");
    writeFileSync(file, jsonl(lines));
    const one = await openSession(file, { secondThread: false });
    const two = await openSession(file, { secondThread: true });
    assert.equal((two as HookedSession).threads, 2, (two as HookedSession).workerFailure);
    assert.deepEqual(picture(two), picture(one));
    assert.equal(two.problemCount, 0);
    const leaf = seed000Format.defaultLeaf(two);
    assert.deepEqual(seed000Format.context(two, leaf), seed000Format.context(one, leaf));
  });
});
