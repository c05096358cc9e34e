import { strict as assert } from "node:assert";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { renderFormatContext } from "../../../src/core/context/format-context";
import { formatOf, openSession } from "../../../src/core/formats/registry";
import { main as cli } from "../../../src/cli/main";
import { tempDir } from "../../helpers/session-builder";
import { recorded } from "./helpers";

const OLD = join(process.cwd(), "test", "fixtures", "codex", "handmade", "home", "sessions", "2025", "09", "01");

const native = (s: Awaited<ReturnType<typeof openSession>>, leaf: number) => JSON.stringify((renderFormatContext(s, leaf, "native") as { messages: unknown[] }).messages);

/** The recorded rollouts copied into a temp Codex home. */
function homeWith(...files: string[]): string {
  const home = tempDir();
  const day = join(home, "sessions", "2026", "11", "26");
  mkdirSync(day, { recursive: true });
  for (const f of files) copyFileSync(f, join(day, basename(f)));
  return join(day, basename(files[0]));
}

describe("Codex fork writer: a new rollout as codex exec fork writes it (checked with the real binary by npm run record:codex -- --check)", () => {
  it("a fork at any entry resumes with the parent's history up to that entry; the parent is not touched", async () => {
    const file = homeWith(recorded().main);
    const before = readFileSync(file);
    const s = await openSession(file);
    const f = formatOf(s);
    for (const at of [3, Math.floor(s.metas.length / 2), s.metas.length - 1]) {
      const id = s.metas[at].id;
      const res = f.writer?.fork(s, id, { now: new Date(Date.UTC(2026, 10, 26, 8, 0, at)) });
      assert.ok(res);
      assert.equal(dirname(dirname(dirname(dirname(res.path)))), dirname(dirname(dirname(dirname(file)))), "in the same Codex home");
      const fork = await openSession(res.path);
      assert.equal(fork.problemCount, 0, fork.problems.map((p) => p.message).join("; "));
      assert.equal(native(fork, f.defaultLeaf(fork)), native(s, at), `fork at ${id}`);
      const head = JSON.parse(readFileSync(res.path, "utf8").split("\n")[0]) as { ordinal: number; payload: Record<string, unknown> };
      assert.equal(head.ordinal, Number(id.slice(1)) + 1);
      assert.deepEqual(head.payload.history_base, { thread_id: formatOf(s).info(s).id, end_ordinal_exclusive: head.ordinal, end_byte_offset: s.metas[at].offset + s.metas[at].length + 1 });
      assert.equal(head.payload.id, res.sessionId);
    }
    assert.deepEqual(readFileSync(file), before);
  });

  it("a fork of a fork starts in the grandparent", async () => {
    const { main, fork } = recorded();
    const file = homeWith(fork, main);
    const s = await openSession(file);
    const res = formatOf(s).writer?.fork(s, s.metas[s.metas.length - 1].id);
    assert.ok(res);
    const again = await openSession(res.path);
    assert.equal(native(again, again.metas.length - 1), native(s, s.metas.length - 1));
  });

  it("an older rollout without ordinals, at a rolled-back branch: the fork copies the path's lines (the rollback applied), as older builds forked", async () => {
    const dir = tempDir();
    const file = join(dir, "rollout-2025-09-01T12-00-00-0198f000-0000-7000-8000-00000000000c.jsonl");
    copyFileSync(join(OLD, basename(file)), file);
    const s = await openSession(file);
    const dropped = s.metas.findIndex((_, i) => s.table.preview(i) === "An answer dropped.");
    let out = "";
    const code = await cli(["fork", file, "--at", s.metas[dropped].id], { out: (t) => (out += t), err: () => undefined, env: {}, cwd: dir });
    assert.equal(code, 0);
    const fork = await openSession(out.trim());
    assert.equal(native(fork, fork.metas.length - 1), native(s, dropped));
    assert.match(native(fork, fork.metas.length - 1), /A question to take back/);
    assert.ok(!readFileSync(out.trim(), "utf8").includes("thread_rolled_back"));
  });
});
