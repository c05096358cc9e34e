import { strict as assert } from "node:assert";
import { join } from "node:path";
import { buildPreview } from "../../src/core/context/preview";
import { renderContextText } from "../../src/core/diff/render-text";
import { openSession } from "../../src/core/formats/registry";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";

/** A pi session whose file name is a time and an id, and whose name is what a person calls it. */
function named(name?: string): string {
  const lines = [header({ cwd: "/home/ana/app" }), user("u1", null, "Run the tests"), assistant("a1", "u1", "All green.")];
  if (name) lines.push(entry("session_info", "i1", "a1", { name }));
  return writeSession(lines, { dir: tempDir(), name: "2026-05-01T12-00-00-000Z_0a1b2c3d.jsonl" });
}

describe("preview and diff documents: the session by its title, the path at the end (issue 24, item 4)", () => {
  it("a preview's first line names the session's title, then its path", async () => {
    const file = named("Fix the build\u202e");
    const s = await openSession(file);
    const first = buildPreview(s, "a1", "pi").text.split("\n")[0];
    assert.equal(first, `// Context pi sends for leaf a1 of 'Fix the build⟨U+202E⟩' (${file})`);
  });

  it("without a name, the first prompt is the title; a diff side's header says it the same way", async () => {
    const file = named();
    const s = await openSession(file);
    const head = renderContextText({ session: s, leaf: s.requireIndex("a1") }).split("\n")[1];
    assert.equal(head, `# pi session 'Run the tests', leaf a1 (${file})`);
    assert.ok(!head.startsWith(`# ${join(file)}`), "the header does not start with the path");
  });
});
