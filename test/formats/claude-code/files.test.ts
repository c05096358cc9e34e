import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { formatOf, openSession } from "../../../src/core/formats/registry";
import { tempDir } from "../../helpers/session-builder";

type Raw = Record<string, unknown>;

describe("Claude Code file operations", () => {
  it("Read, Write, Edit, MultiEdit and NotebookEdit by the path they name, in the order first touched; Bash claims no path", async () => {
    let n = 0;
    const line = (type: string, message: Raw): Raw => {
      n++;
      return { parentUuid: n > 1 ? `u${n - 1}` : null, isSidechain: false, userType: "external", cwd: "/home/ana/app", sessionId: "s-files", version: "2.1.90", gitBranch: "main", type, message, uuid: `u${n}`, timestamp: `2026-03-01T10:00:${String(n).padStart(2, "0")}.000Z` };
    };
    const call = (id: string, name: string, input: Raw) => line("assistant", { id: `msg_${id}`, role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "tool_use", id, name, input }] });
    const result = (id: string) => line("user", { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] });
    const lines = [
      line("user", { role: "user", content: "Tidy the app" }),
      call("t1", "Read", { file_path: "/home/ana/app/a.ts" }),
      result("t1"),
      call("t2", "Bash", { command: "cat /etc/hosts > b.ts" }),
      result("t2"),
      call("t3", "Edit", { file_path: "/home/ana/app/a.ts", old_string: "x", new_string: "y" }),
      result("t3"),
      call("t4", "MultiEdit", { file_path: "/home/ana/app/a.ts", edits: [] }),
      result("t4"),
      call("t5", "Write", { file_path: "/home/ana/app/c.ts", content: "" }),
      result("t5"),
      call("t6", "NotebookEdit", { notebook_path: "/home/ana/app/n.ipynb", new_source: "" }),
      result("t6"),
    ];
    const file = join(tempDir(), "s-files.jsonl");
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const s = await openSession(file);
    const f = formatOf(s);
    assert.equal(f.id, "claude-code");
    const got = f.files?.(s, s.tree.path(f.defaultLeaf(s))) ?? [];
    assert.deepEqual(
      got.map((a) => [a.path, a.read, a.written, a.edited, a.firstEntryId]),
      [
        ["/home/ana/app/a.ts", 1, 0, 2, "u2"],
        ["/home/ana/app/c.ts", 0, 1, 0, "u10"],
        ["/home/ana/app/n.ipynb", 0, 0, 1, "u12"],
      ],
    );
  });
});
