import { strict as assert } from "node:assert";
import { forkPointWords } from "../../src/core/formats/title-facts";
import { openSession } from "../../src/core/formats/registry";
import { piFormat } from "../../src/core/formats/pi/format";
import { forkTitle } from "../../src/core/util/session-title";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";

describe("a fork's title: its source's, with where it was forked (issue 24, item 15)", () => {
  it("a pi fork made at a name entry is told by the prompt before it; its source copied nothing and says nothing", async () => {
    const dir = tempDir();
    const file = writeSession([
      header({ cwd: "/home/ana/app" }),
      user("u1", null, "Run the tests"),
      assistant("a1", "u1", "All green."),
      user("u3", "a1", "Try the old build"),
      assistant("a3", "u3", "The old build fails."),
      entry("session_info", "i1", "a3", { name: "Fix the build" }),
    ], { dir, name: "source.jsonl" });
    const source = await openSession(file);
    assert.equal(forkPointWords(source), undefined, "the source is no fork");
    const writer = piFormat.writer;
    assert.ok(writer);
    // A fork's header is written now, so every copied entry (timed 2026-01-01) is older than it.
    const atName = await openSession(writer.fork(source, "i1", { dir }).path);
    assert.equal(forkTitle("Fix the build", forkPointWords(atName)), "Fix the build (fork at 'Try the old build')");
    const atReply = await openSession(writer.fork(source, "a1", { dir }).path);
    assert.equal(forkTitle("Fix the build", forkPointWords(atReply)), "Fix the build (fork at 'All green.')");
  });
});
