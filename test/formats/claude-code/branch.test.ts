import { strict as assert } from "node:assert";
import { appendFileSync, copyFileSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { openSession } from "../../../src/core/formats/registry";
import { sharedFolderGuard } from "../../helpers/fixtures";
import { tempDir } from "../../helpers/session-builder";

const OURS = join(process.cwd(), "test", "fixtures", "claude-code");
const SHARED = resolve(process.env.ASE_CLAUDE_CODE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "claude-code"));
const need = sharedFolderGuard("Claude Code branch", SHARED, "ASE_CLAUDE_CODE_FIXTURES");

/** A copy of a fixture in a fresh folder, and its bytes. */
function copyOf(file: string): { copy: string; dir: string; before: Buffer } {
  const dir = tempDir();
  const copy = join(dir, basename(file));
  copyFileSync(file, copy);
  return { copy, dir, before: readFileSync(copy) };
}

const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter((l) => l.trim());

describe("claude-code: fork as /branch writes it", () => {
  it("rewind-split (../shared): at the default leaf, the file is branch-of-rewind-split.jsonl but for the new sessionId; the source byte-identical, no temp file", async function () {
    need(this, "handmade/rewind-split.jsonl", "handmade/branch-of-rewind-split.jsonl");
    const { copy, dir, before } = copyOf(join(SHARED, "handmade", "rewind-split.jsonl"));
    const s = await openSession(copy);
    const res = f.writer!.fork(s, s.metas[f.defaultLeaf(s)].id, { dir });
    assert.equal(basename(res.path), `${res.sessionId}.jsonl`);
    const want = lines(join(SHARED, "handmade", "branch-of-rewind-split.jsonl"));
    const wantId = (JSON.parse(want[0]) as { sessionId: string }).sessionId;
    assert.deepEqual(lines(res.path), want.map((l) => l.split(wantId).join(res.sessionId)));
    assert.equal(res.entryCount, want.length - 1);
    assert.ok(readFileSync(copy).equals(before));
    assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith(".")), []);
  });

  it("our rewind fixture, at the older branch: linear parents, forkedFrom on every line, the title marked; it reads back with the same context", async () => {
    const { copy, dir, before } = copyOf(join(OURS, "rewind-split-sidechain.jsonl"));
    const s = await openSession(copy);
    const leaf = "cc100000-0000-4000-8000-000000000011";
    const res = f.writer!.fork(s, leaf, { dir });
    const recs = lines(res.path).map((l) => JSON.parse(l) as Record<string, unknown>);
    const title = recs.pop();
    assert.deepEqual(title, { type: "custom-title", customTitle: "files (Branch)", sessionId: res.sessionId });
    recs.forEach((r, k) => {
      assert.equal(r.sessionId, res.sessionId);
      assert.equal(r.parentUuid, k === 0 ? null : recs[k - 1].uuid);
      assert.deepEqual(r.forkedFrom, { sessionId: "cc000000-0000-4000-8000-000000000000", messageUuid: r.uuid });
    });
    const back = await openSession(res.path);
    assert.deepEqual(back.problems, []);
    assert.equal(back.metas[f.defaultLeaf(back)].id, leaf);
    assert.deepEqual(f.context(back, f.defaultLeaf(back)), f.context(s, s.requireIndex(leaf)));
    assert.ok(readFileSync(copy).equals(before));
  });

  it("after a partial compaction: the chain from the boundary, relinked, read back to the same messages; no title line in the source: the first prompt names it", async () => {
    const { copy, dir } = copyOf(join(OURS, "compaction-side-results.jsonl"));
    const s = await openSession(copy);
    const res = f.writer!.fork(s, s.metas[f.defaultLeaf(s)].id, { dir });
    const back = await openSession(res.path);
    assert.deepEqual(back.problems, []);
    assert.equal(back.metas[0].type, "system/compact_boundary");
    assert.deepEqual(f.context(back, f.defaultLeaf(back)).messages, f.context(s, f.defaultLeaf(s)).messages);
    const title = JSON.parse(lines(res.path).at(-1) as string) as { customTitle: string };
    assert.equal(title.customTitle, "Keep going (Branch)");
  });

  it("content-replacement lines (stubs of large tool outputs) are copied under the new sessionId, before the title; other metadata lines are not", async () => {
    const { copy, dir } = copyOf(join(OURS, "rewind-split-sidechain.jsonl"));
    const replacement = { type: "content-replacement", sessionId: "cc000000-0000-4000-8000-000000000000", replacements: [{ toolUseId: "toolu_01", path: "/tmp/out.txt" }] };
    appendFileSync(copy, `${JSON.stringify(replacement)}\n${JSON.stringify({ type: "tag", tag: "x", sessionId: "cc000000-0000-4000-8000-000000000000" })}\n`);
    const s = await openSession(copy);
    const res = f.writer!.fork(s, s.metas[f.defaultLeaf(s)].id, { dir });
    const out = lines(res.path).map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(out.at(-2), { ...replacement, sessionId: res.sessionId });
    assert.equal(out.at(-1)?.type, "custom-title");
    assert.equal(out.filter((r) => r.type === "tag").length, 0);
    assert.deepEqual((await openSession(res.path)).problems, []);
  });
});
