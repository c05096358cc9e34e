import { strict as assert } from "node:assert";
import { piFormat as f } from "../../../src/core/formats/pi/format";
import { RowView } from "../../../src/explorer/row-view";
import { assistant, bash, entry, header, toolResult, user } from "../../helpers/session-builder";
import { piSession } from "./memory";

const CWD = "/home/ana/proj";

describe("pi rows: every call of a response in words, paths relative to the header's cwd", () => {
  function open() {
    const s = piSession([
      header({ cwd: CWD }),
      user("u1", null, "read b.txt, then edit csv.js"),
      assistant("a1", "u1", "", {
        toolCalls: [
          { id: "c1", name: "read", arguments: { path: `${CWD}/b.txt` } },
          { id: "c2", name: "bash", arguments: { command: "ls" } },
        ],
      }),
      toolResult("t1", "a1", "c1", "read", "hello"),
      assistant("a2", "t1", "Fixing it.", { toolCalls: [{ id: "c3", name: "edit", arguments: { path: `${CWD}/src/csv.js`, oldText: "a,b", newText: "a;b" } }] }),
      bash("b1", "a2", "git status", "clean"),
      entry("compaction", "k1", "b1", { summary: "s", firstKeptEntryId: "a2", tokensBefore: 900 }),
      entry("model_change", "m1", "k1", { provider: "anthropic", modelId: "claude-opus-4-1" }),
    ]);
    const rows = new RowView(s);
    rows.setFilter("all");
    return { s, row: (id: string) => rows.page(0, 100).find((r) => r.id === id) };
  }

  it("a response's calls all listed, after its text; an edit with its line counts", () => {
    const { row } = open();
    assert.equal(row("a1")?.preview, "-> Read b.txt, $ ls");
    assert.equal(row("a2")?.preview, "Fixing it. -> Edit src/csv.js (-1 +1)");
  });

  it("a Windows cwd: paths inside it relative too", () => {
    const s = piSession([header({ cwd: "C:\\work\\app" }), user("u1", null, "go"), assistant("a1", "u1", "", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "C:\\work\\app\\src\\a.ts" } }] })]);
    const rows = new RowView(s);
    assert.equal(rows.page(0, 10).find((r) => r.id === "a1")?.preview, "-> Read src\\a.ts");
  });

  it("labels for a person, pi's own names second", () => {
    const { s, row } = open();
    const d = (id: string) => f.describe(s, s.requireIndex(id));
    assert.deepEqual([d("a1").label, d("a1").typeName], ["Tool calls", "assistant"]);
    assert.deepEqual([d("a2").label, d("a2").typeName], ["Tool call", "assistant"]);
    assert.deepEqual([d("t1").label, d("t1").typeName], ["Tool result", "toolResult"]);
    assert.deepEqual([d("b1").label, d("b1").typeName], ["Shell command", "bashExecution"]);
    assert.deepEqual([d("k1").label, d("k1").typeName], ["Compaction", "compaction"]);
    assert.deepEqual([d("m1").label, d("m1").typeName], ["Model change", "model_change"]);
    assert.deepEqual([row("k1")?.typeLabel, row("k1")?.typeName], ["Compaction", "compaction"]);
  });
});
