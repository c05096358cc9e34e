import { strict as assert } from "node:assert";
import { copyFileSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { claudeCodeFormat as f } from "../../../src/core/formats/claude-code/format";
import { openSession } from "../../../src/core/formats/registry";
import type { SessionReader } from "../../../src/core/session/session-reader";
import { sharedFolderGuard } from "../../helpers/fixtures";
import { tempDir } from "../../helpers/session-builder";

const SHARED = resolve(process.env.ASE_CLAUDE_CODE_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "claude-code"));
const OURS = join(process.cwd(), "test", "fixtures", "claude-code");
const need = sharedFolderGuard("Claude Code fork read-back", SHARED, "ASE_CLAUDE_CODE_FIXTURES");

/** Every transcript of ../shared with a chain golden (the main sessions; sub-agent files are not forked). */
const SHARED_FILES = [
  "real/agentlogs-compact.jsonl",
  "real/agentlogs-images.jsonl",
  "real/agentlogs-subagent-inline.jsonl",
  "real/ccl-bash-mode-branch-v1.0.55.jsonl",
  "real/ccl-progress-v2.1.42.jsonl",
  "real/ccl-subagents-v2.1.114/ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl",
  "real/spotter-short.jsonl",
  "real/spotter-tool-heavy.jsonl",
  "handmade/branch-of-rewind-split.jsonl",
  "handmade/compact-preserved-segment.jsonl",
  "handmade/parallel-tools-side-branch.jsonl",
  "handmade/parallel-tools.jsonl",
  "handmade/rewind-split.jsonl",
  "handmade/two-compactions-api-error.jsonl",
];

const chainIds = (s: SessionReader, leaf: number) => (f.chain?.(s, leaf) ?? []).map((i) => s.metas[i].id);
const records = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The entries a fork is tried at: the default leaf, every other leaf, and the middle of the default chain. */
function forkPoints(s: SessionReader): number[] {
  const leaf = f.defaultLeaf(s);
  const chain = f.chain?.(s, leaf) ?? [];
  const leaves = s.tree.leaves().filter((i) => !(f.describe(s, i).typeName ?? "").startsWith("sidechain") && s.metas[i].type !== "progress");
  return [...new Set([leaf, chain[Math.floor(chain.length / 2)], ...leaves.slice(0, 6)])].filter((i) => i !== undefined && i >= 0);
}

/**
 * A fork at entry X holds the lines of the source's chain for X, in order, as one linear
 * chain (progress lines are written but never parents, as /branch does); resumed, it
 * gives that chain without its progress lines and the same messages; every line keeps the source line's fields and
 * gains forkedFrom; the title line says Branch; the source is byte-identical.
 */
async function checkFile(file: string): Promise<number> {
  const dir = tempDir();
  const copy = join(dir, basename(file));
  copyFileSync(file, copy);
  const before = readFileSync(copy);
  const s = await openSession(copy);
  const byUuid = new Map(records(copy).filter((r) => typeof r.uuid === "string").map((r) => [r.uuid as string, r]));
  let forks = 0;
  for (const at of forkPoints(s)) {
    const id = s.metas[at].id;
    const res = f.writer!.fork(s, id, { dir });
    const back = await openSession(res.path);
    const why = `${basename(file)} forked at ${id}`;
    assert.deepEqual(back.problems, [], why);
    const written = chainIds(s, at);
    // Read back, the chain at its last line is the same chain but for progress lines, which never become parents;
    // at the entry itself it is that chain up to the entry (tool results recovered after it come after it).
    const progress = new Set(s.metas.filter((m) => m.type === "progress").map((m) => m.id));
    const linear = written.filter((u) => !progress.has(u));
    const last = back.requireIndex(linear[linear.length - 1]);
    assert.deepEqual(chainIds(back, last), linear, `${why}: the chain`);
    if (!progress.has(id)) assert.deepEqual(chainIds(back, back.requireIndex(id)), linear.slice(0, linear.indexOf(id) + 1), `${why}: the chain up to the entry`);
    assert.deepEqual(f.context(back, last).messages, f.context(s, at).messages, `${why}: the messages`);
    const out = records(res.path);
    const title = out.pop() as Record<string, unknown>;
    assert.equal(title.type, "custom-title", why);
    assert.match(String(title.customTitle), /\(Branch\)$/, why);
    assert.deepEqual(out.map((r) => r.uuid), written, `${why}: the lines are the chain, in order`);
    out.forEach((r, k) => {
      const src = byUuid.get(r.uuid as string) as Record<string, unknown>;
      assert.deepEqual(Object.keys(r).filter((key) => key !== "forkedFrom").sort(), Object.keys(src).filter((key) => key !== "forkedFrom").sort(), `${why}: line ${k + 1} keeps the source line's fields`);
      assert.equal(r.sessionId, res.sessionId, why);
      const parent = out.slice(0, k).filter((p) => p.type !== "progress").at(-1);
      assert.equal(r.parentUuid, parent?.uuid ?? null, `${why}: one linear chain (progress lines are never parents)`);
      assert.equal((r.forkedFrom as { messageUuid?: unknown }).messageUuid, r.uuid, why);
    });
    forks++;
  }
  assert.ok(readFileSync(copy).equals(before), `${basename(file)}: the source is byte-identical`);
  assert.deepEqual(readdirSync(dir).filter((n) => n.startsWith(".")), [], "no temp file left");
  return forks;
}

describe("claude-code: every fixture's fork reads back with the same chain up to the entry", () => {
  for (const name of SHARED_FILES) {
    it(`${name} (../shared)`, async function () {
      need(this, name);
      assert.ok((await checkFile(join(SHARED, name))) >= 1);
    });
  }
  for (const name of readdirSync(OURS).filter((n) => n.endsWith(".jsonl"))) {
    it(`${name} (ours)`, async () => {
      assert.ok((await checkFile(join(OURS, name))) >= 1);
    });
  }
});
