import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildClawdcodeContext } from "../../../src/core/formats/clawdcode/context";
import { clawdcodeFormat } from "../../../src/core/formats/clawdcode/format";
import { assistant, boundary, memory, needSeed002, loadFile, SEED_002_DIR, summary, system, toolResult, toolUse, user } from "./lines";

interface Golden {
  file: string;
  defaultLeaf: string;
  context: { boundary: string | null; lineUuids: string[]; droppedOrphans: string[]; messages: unknown[] };
}

describe("clawdcode: context rules (15.2)", () => {
  it("converts each line type: user, assistant, tool_use, tool_result (with and without error)", () => {
    const s = memory([
      user("u1", null, "hi"),
      assistant("a1", "u1", [{ type: "text", text: "looking" }]),
      toolUse("t1", "a1", "call_1", "read", { path: "a.ts" }),
      toolResult("r1", "t1", "call_1", "x = 1"),
      toolUse("t2", "r1", "call_2", "edit", { path: "a.ts" }),
      toolResult("r2", "t2", "call_2", "", "conflict"),
    ]);
    const msgs = clawdcodeFormat.context(s, 5).messages.map((m) => m.message);
    assert.deepEqual(msgs, [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "text", text: "looking" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "read", input: { path: "a.ts" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_1", content: "x = 1" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "call_2", name: "edit", input: { path: "a.ts" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "call_2", content: "", is_error: true }] },
    ]);
    assert.deepEqual(clawdcodeFormat.context(s, 5).messages.map((m) => m.kind), ["user", "assistant", "toolCall", "toolResult", "toolCall", "toolResult"]);
  });

  it("a system line in the chain carries no message; its neighbours stay", () => {
    const s = memory([user("u1", null, "a"), system("s1", "u1", "Model switched"), assistant("a1", "s1", "b")]);
    const c = buildClawdcodeContext(s, 2);
    assert.deepEqual(c.items.map((i) => i.line.uuid), ["u1", "a1"]);
    assert.equal(c.boundary, null);
  });

  it("a rewind: each leaf sees only its own branch", () => {
    const s = memory([user("u1", null, "q"), assistant("a1", "u1", "first"), user("u2", "a1", "old branch"), user("u3", "a1", "new branch"), assistant("a3", "u3", "ok")]);
    assert.deepEqual(buildClawdcodeContext(s, 2).items.map((i) => i.line.uuid), ["u1", "a1", "u2"]);
    assert.deepEqual(buildClawdcodeContext(s, 4).items.map((i) => i.line.uuid), ["u1", "a1", "u3", "a3"]);
    assert.equal(clawdcodeFormat.defaultLeaf(s), 4);
  });

  it("after a boundary: the summary first, nothing from before; the last boundary on the path wins", () => {
    const s = memory([
      user("u1", null, "old"),
      assistant("a1", "u1", "old answer"),
      boundary("b1", "a1", 500),
      summary("s1", "b1", "first summary"),
      assistant("a2", "s1", "after one"),
      boundary("b2", "a2", 600),
      summary("s2", "b2", "second summary"),
      user("u3", "s2", "go on"),
    ]);
    const c = buildClawdcodeContext(s, 7);
    assert.equal(c.boundary, "b2");
    assert.deepEqual(c.items.map((i) => i.message), [{ role: "user", content: "second summary" }, { role: "user", content: "go on" }]);
    assert.equal(clawdcodeFormat.context(s, 7).messages[0].kind, "summary");
    // A leaf between the two boundaries sees the first one only.
    assert.deepEqual(buildClawdcodeContext(s, 4).items.map((i) => i.line.uuid), ["s1", "a2"]);
  });

  it("drops a tool_result whose tool_use is not earlier in the context (written by an older writer)", () => {
    const s = memory([
      user("u1", null, "x"),
      toolUse("t1", "u1", "call_1", "bash", { command: "ls" }),
      boundary("b1", "t1", 100),
      summary("s1", "b1", "sum"),
      toolResult("r1", "s1", "call_1", "a b c"),
      assistant("a1", "r1", "done"),
    ]);
    const c = buildClawdcodeContext(s, 5);
    assert.deepEqual(c.droppedOrphans, ["r1"]);
    assert.deepEqual(c.items.map((i) => i.line.uuid), ["s1", "a1"]);
  });

  it("a result answered out of order (its tool_use later on the path) is an orphan too", () => {
    const s = memory([user("u1", null, "x"), toolResult("r1", "u1", "call_9", "early"), toolUse("t9", "r1", "call_9", "read", {})]);
    assert.deepEqual(buildClawdcodeContext(s, 2).droppedOrphans, ["r1"]);
  });

  it("the empty context for leaf -1 and an empty session", () => {
    const s = memory([]);
    assert.equal(clawdcodeFormat.defaultLeaf(s), -1);
    assert.deepEqual(clawdcodeFormat.context(s, -1), { leafId: null, messages: [] });
  });
});

describe("clawdcode: our contract fixture", () => {
  it("branches-compaction.jsonl: rewind, tool error, system line, boundary, and an orphan from an older writer", async () => {
    const s = await loadFile(join("test", "fixtures", "clawdcode", "branches-compaction.jsonl"));
    const id = (n: number) => `33333333-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const leaf = clawdcodeFormat.defaultLeaf(s);
    assert.equal(s.table.idAt(leaf), id(14));
    const c = buildClawdcodeContext(s, leaf);
    assert.equal(c.boundary, id(11));
    assert.deepEqual(c.droppedOrphans, [id(13)]);
    assert.deepEqual(c.items.map((i) => i.message), [
      { role: "user", content: "[Summary] The build failed on a missing src/config.ts; the user asked to restore it from git." },
      { role: "assistant", content: [{ type: "text", text: "Restored; the build passes." }] },
    ]);
    // The older branch: no boundary on its path, the error result and the system line's neighbours.
    const old = buildClawdcodeContext(s, s.requireIndex(id(8)));
    assert.equal(old.boundary, null);
    assert.deepEqual(old.items.map((i) => i.line.uuid), [1, 2, 3, 4, 6, 7, 8].map(id));
    assert.deepEqual(old.items[2].message, { role: "user", content: [{ type: "tool_result", tool_use_id: "call_a1", content: "", is_error: true }] });
  });
});

describe("clawdcode: seed-002 goldens", () => {
  for (const name of ["branches", "compaction-orphan"]) {
    it(`${name}.golden.json: defaultLeaf, boundary, lineUuids, droppedOrphans, messages`, async function () {
      needSeed002(this);
      const golden = JSON.parse(readFileSync(join(SEED_002_DIR, `${name}.golden.json`), "utf8")) as Golden;
      const s = await loadFile(join(SEED_002_DIR, golden.file));
      assert.equal(s.problemCount, 0);
      const leaf = clawdcodeFormat.defaultLeaf(s);
      assert.equal(s.table.idAt(leaf), golden.defaultLeaf);
      const c = buildClawdcodeContext(s, leaf);
      assert.equal(c.boundary, golden.context.boundary);
      assert.deepEqual(c.items.map((i) => i.line.uuid), golden.context.lineUuids);
      assert.deepEqual(c.droppedOrphans, golden.context.droppedOrphans);
      assert.deepEqual(clawdcodeFormat.context(s, leaf).messages.map((m) => m.message), golden.context.messages);
    });
  }
});
