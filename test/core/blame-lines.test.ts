import { strict as assert } from "node:assert";
import { blameLines } from "../../src/core/history/blame-lines";
import type { FileTouch } from "../../src/core/history/file-touch";

function touch(entryId: string, timestamp: string, operation: FileTouch["operation"], oldText: string | undefined, newText: string | undefined): FileTouch {
  return { agent: "pi", sessionPath: "/s.jsonl", sessionTitle: "t", entryId, timestamp, operation, absolutePath: "/p/a.ts", ...(oldText !== undefined ? { oldText } : {}), ...(newText !== undefined ? { newText } : {}) };
}

/** Line numbers (1-based, as a person reads them) and the entry that claims each. */
function shown(m: Map<number, FileTouch>): Array<[number, string]> {
  return [...m.entries()].sort((a, b) => a[0] - b[0]).map(([l, t]) => [l + 1, t.entryId]);
}

describe("agent blame: which lines an agent's edits still hold", () => {
  const file = ["import x from 'x';", "", "export function greet(name) {", "  return `Hello, ${name}!`;", "}", "", "export const n = 1;", ""].join("\n");

  it("a write claims its lines still there around distinctive ones; a later edit claims the lines it added, not its context", () => {
    const write = touch("w", "2026-01-01T00:00:00Z", "write", undefined, "import x from 'x';\n\nexport function greet(name) {\n  return name;\n}\n");
    const edit = touch("e", "2026-01-02T00:00:00Z", "edit", "export function greet(name) {\n  return name;\n}", "export function greet(name) {\n  return `Hello, ${name}!`;\n}");
    assert.deepEqual(shown(blameLines(file, [edit, write])), [
      [1, "w"],
      [3, "w"],
      [4, "e"],
    ]);
  });

  it("a line changed since is not claimed; the rest of the same edit still is (its runs looked for alone)", () => {
    const edit = touch("e", "2026-01-02T00:00:00Z", "edit", "", "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n");
    const changed = file.replace("Hello", "Howdy");
    assert.deepEqual(shown(blameLines(file, [edit])), [
      [3, "e"],
      [4, "e"],
      [5, "e"],
    ]);
    assert.deepEqual(shown(blameLines(changed, [edit])), [[3, "e"]]);
  });

  it("a part-line edit claims its line; reads, texts not recorded and blank texts claim nothing; CRLF files match", () => {
    const part = touch("p", "2026-01-03T00:00:00Z", "edit", "n = 0", "n = 1");
    const read = touch("r", "2026-01-04T00:00:00Z", "read", undefined, undefined);
    const blind = touch("b", "2026-01-04T00:00:00Z", "edit", undefined, undefined);
    const blank = touch("s", "2026-01-04T00:00:00Z", "edit", "x", "\n\n");
    assert.deepEqual(shown(blameLines(file.replace(/\n/g, "\r\n"), [read, blind, blank, part])), [[7, "p"]]);
    assert.deepEqual(shown(blameLines(file.replace("n = 1", "n = 2"), [part])), []);
  });
});
