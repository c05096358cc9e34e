import { strict as assert } from "node:assert";
import { join, resolve } from "node:path";
import { FORMATS, openSession } from "../../src/core/formats/registry";
import { PathFiles } from "../../src/core/session/path-files";
import type { FileActivity } from "../../src/core/session/session-format";
import type { SessionReader } from "../../src/core/session/session-reader";
import { formatFixtures } from "../helpers/format-fixtures";
import { assistant, entry, header, toolResult, user, writeSession } from "../helpers/session-builder";

// The HTML export's files per branch (issue 30, a 100 MB page under 2x the file's RSS): each
// stretch of the tree read once, a chunk at a time, and merged per branch. The lists must be
// what the format's `files` gives for the whole path, order and all.

const call = (id: string, name: string, path: string) => ({ id, name, arguments: { path } });

/** A pi session whose branches share a start and touch the same files again below the fork. */
function branchedSession(): string {
  return writeSession([
    header(),
    user("u1", null, "start"),
    assistant("a1", "u1", "", { toolCalls: [call("c1", "read", "src/a.ts"), call("c2", "edit", "src/b.ts")] }),
    toolResult("r1", "a1", "c1", "read", "..."),
    assistant("a2", "r1", "", { toolCalls: [call("c3", "read", "src/a.ts"), call("c4", "write", "src/c.ts")] }),
    toolResult("r2", "a2", "c3", "read", "..."),
    // The fork: two ways on from r2, each touching a file of the shared start again and one of its own.
    assistant("b1", "r2", "", { toolCalls: [call("c5", "edit", "src/a.ts"), call("c6", "read", "src/d.ts")] }),
    toolResult("br1", "b1", "c5", "edit", "..."),
    entry("branch_summary", "s1", "br1", { fromId: "r2", summary: "tried", details: { readFiles: ["src/e.ts", "src/a.ts"], modifiedFiles: ["src/b.ts"] } }),
    assistant("b2", "s1", "", { toolCalls: [call("c7", "write", "src/e.ts")] }),
    assistant("x1", "r2", "", { toolCalls: [call("c8", "write", "src/b.ts"), call("c9", "read", "src/f.ts")] }),
    toolResult("xr1", "x1", "c8", "write", "..."),
    // A second fork below the first.
    assistant("x2", "xr1", "", { toolCalls: [call("c10", "read", "src/c.ts")] }),
    entry("compaction", "k1", "xr1", { summary: "s", firstKeptEntryId: "x1", tokensBefore: 5000, details: { readFiles: ["src/g.ts"], modifiedFiles: ["src/a.ts", "src/g.ts"] } }),
    assistant("x3", "k1", "", { toolCalls: [call("c11", "edit", "src/g.ts")] }),
  ]);
}

/** The format's own list for the whole path, as JSON (key order too: the page holds it as is). */
function wholePath(s: SessionReader, path: readonly number[]): string {
  return JSON.stringify((s.format.files as NonNullable<typeof s.format.files>)(s, path));
}

function allLeaves(s: SessionReader): number[] {
  return s.tree.leaves();
}

describe("export: files per branch, each stretch of the tree read once", () => {
  it("every branch's files equal the format's list for its whole path, at any chunk size (built pi session)", async () => {
    const s = await openSession(branchedSession());
    const files = s.format.files as NonNullable<typeof s.format.files>;
    const leaves = allLeaves(s);
    assert.ok(leaves.length >= 3, `${leaves.length} leaves`);
    for (const chunk of [1, 2, 3, 512]) {
      const by = new PathFiles(s, files, { chunk });
      for (const leaf of leaves) {
        const path = s.tree.path(leaf);
        assert.equal(JSON.stringify(by.of(path)), wholePath(s, path), `leaf ${s.metas[leaf].id}, chunk ${chunk}`);
      }
    }
    // The summaries' kinds and the counts of the shared start, as the panel shows them.
    const x3 = s.tree.path(s.requireIndex("x3"));
    const a = new PathFiles(s, files).of(x3).find((f: FileActivity) => f.path === "src/a.ts");
    assert.deepEqual(a && { read: a.read, edited: a.edited, fromSummary: a.fromSummary, first: a.firstEntryId }, { read: 2, edited: 0, fromSummary: ["modified"], first: "a1" });
  });

  it("reads each position once over all the branches, a chunk at a time, calling afterChunk after each", async () => {
    const s = await openSession(branchedSession());
    const files = s.format.files as NonNullable<typeof s.format.files>;
    const asked: number[] = [];
    let afterChunk = 0;
    const by = new PathFiles(s, (session, positions) => (asked.push(...positions), files(session, positions)), { chunk: 2, afterChunk: () => afterChunk++ });
    const paths = allLeaves(s).map((l) => s.tree.path(l));
    for (const p of paths) by.of(p);
    const distinct = new Set(paths.flat());
    assert.equal(asked.length, distinct.size, `${asked.length} positions read for ${distinct.size} on the branches`);
    assert.ok(afterChunk > paths.length, `${afterChunk} chunks`);
  });

  it("equals the format's list on every branch of every fixture session with branches", async function () {
    this.timeout(300_000);
    const roots = [resolve(join(process.cwd(), "..", "shared", "fixtures")), join(process.cwd(), "test", "fixtures")];
    let branched = 0;
    for (const format of FORMATS) {
      if (!format.files) continue;
      for (const file of roots.flatMap((r) => formatFixtures(r, format.id))) {
        let s: SessionReader;
        try {
          s = await openSession(file);
        } catch {
          continue; // A fixture of a bad file: the format tests cover it.
        }
        const files = s.format.files;
        if (!files) continue;
        const leaves = allLeaves(s).slice(0, 40);
        if (leaves.length > 1) branched++;
        const by = new PathFiles(s, files, { chunk: 7 });
        for (const leaf of leaves) {
          const path = s.tree.path(leaf);
          assert.equal(JSON.stringify(by.of(path)), wholePath(s, path), `${file}: leaf ${s.metas[leaf].id}`);
        }
      }
    }
    assert.ok(branched >= 3, `${branched} fixture sessions with branches`);
  });
});
