import { strict as assert } from "node:assert";
import { join } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { claudeCodeIndexHooks } from "../../../src/core/formats/claude-code/index-hooks";
import { MemorySession } from "../../../src/core/session/memory-session";
import { openSession } from "../../../src/core/formats/registry";
import { formatBars } from "../../../src/explorer/format-bars";
import { fragment, progress, type Raw, sidechain, system, text, user } from "./lines";

const u = (n: number) => `cc100000-0000-4000-8000-${String(n).padStart(12, "0")}`;

describe("claude-code: a bar per branch Claude Code could resume", () => {
  it("our rewind fixture: the default leaf and the rewound branch; no bar for a trailing progress, system or inline sub-agent line", async () => {
    const s = await openSession(join(process.cwd(), "test", "fixtures", "claude-code", "rewind-split-sidechain.jsonl"));
    assert.deepEqual(formatBars(s, undefined).map((b) => [b.leafId, b.title]), [
      [u(15), "Default leaf (where Claude Code continues)"],
      [u(11), "Branch after 'Delete them'"],
    ]);
  });

  it("branchEnd: a leaf's nearest message; -1 for inline sub-agent lines, which are the conversation in a sub-agent's own file", () => {
    const recs: Raw[] = [user("u1", null, "go"), fragment("a1", "u1", "msg_1", text("ok")), progress("p1", "a1", "t"), system("s1", "a1", "turn_duration"), sidechain(user("x1", "a1", "helper"))];
    const s = new MemorySession("claude-code", claudeCodeIndexHooks, recs);
    const end = (id: string) => f.branchEnd?.(s, s.requireIndex(id));
    assert.equal(end("p1"), s.requireIndex("a1"));
    assert.equal(end("s1"), s.requireIndex("a1"));
    assert.equal(end("x1"), -1);
    const own = new MemorySession("claude-code", claudeCodeIndexHooks, [sidechain(user("y1", null, "task")), sidechain(fragment("y2", "y1", "msg_y", text("done")))]);
    assert.equal(f.branchEnd?.(own, 1), 1);
  });
});
