import { strict as assert } from "node:assert";
import { appendFileSync, existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HistoryIndex, historyCacheFile } from "../../src/core/history/history-index";
import { lookupFileHistory } from "../../src/core/history/lookup";
import { normalizedRemote, repoOf } from "../../src/core/history/repo-identity";
import { buildHistoryWorld, type HistoryWorld } from "../helpers/history-world";
import { assistant } from "../helpers/session-builder";

function newIndex(w: HistoryWorld, cacheDir?: string): HistoryIndex {
  return new HistoryIndex({ dirs: w.dirs, only: Object.keys(w.dirs), cacheDir, env: w.env });
}

describe("per-file agent history (core index)", () => {
  it("one file's touches from pi, Claude Code and Codex, newest first, paths resolved against each session's cwd", async () => {
    const w = buildHistoryWorld();
    const index = newIndex(w);
    await index.refresh();
    assert.deepEqual(index.problems, []);
    const got = index.lookup(join(w.main, "src", "app.ts"));
    assert.deepEqual(
      got.map((t) => [t.agent, t.operation, t.entryId, t.timestamp, t.otherCheckout ?? ""]),
      [
        ["codex", "edit", got[0].entryId, "2026-06-01T08:00:01.000Z", ""],
        ["pi", "edit", "p4", "2026-05-01T10:00:04.000Z", ""],
        ["pi", "read", "p2", "2026-05-01T10:00:02.000Z", ""],
        ["claude-code", "write", "a1", "2026-04-01T09:00:01.000Z", w.other],
      ],
    );
    const [codex, piEdit, piRead, ccWrite] = got;
    assert.equal(codex.sessionPath, w.codexFile);
    assert.equal(codex.newText, "export const n = 1;\n");
    assert.equal(codex.oldText, "export const n = 0;\n");
    assert.equal(codex.prompt, "Bump n to one");
    assert.deepEqual([piEdit.oldText, piEdit.newText, piEdit.prompt, piEdit.sessionPath, piEdit.sessionTitle], ["'hallo'", "'hello'", "Greet in English please", w.piFile, "Greet in English please"]);
    assert.equal(piRead.newText, undefined);
    assert.equal(ccWrite.absolutePath, join(w.other, "src", "app.ts"));
    assert.equal(ccWrite.newText, "export const n = 1;\n");
    assert.equal(ccWrite.prompt, "Start the app file over");
    // A file only the other clone's session touched is found from the main checkout too.
    assert.deepEqual(index.lookup(join(w.main, "src", "other.ts")).map((t) => [t.entryId, t.otherCheckout]), [["a2", w.other]]);
    assert.deepEqual(index.lookup(join(w.main, "src", "nothing.ts")), []);
  });

  it("incremental: a refresh re-reads only the session that changed; a new index reads none from the cache file", async () => {
    const w = buildHistoryWorld();
    const cacheDir = join(w.base, "cache");
    const index = newIndex(w, cacheDir);
    await index.refresh();
    assert.equal(index.sessionReads, 3);
    assert.ok(existsSync(historyCacheFile(cacheDir)));
    await index.refresh();
    assert.equal(index.sessionReads, 3, "nothing changed: nothing read");

    appendFileSync(
      w.piFile,
      `${JSON.stringify({ ...assistant("p6", "p5", "", { toolCalls: [{ id: "c3", name: "write", arguments: { path: "src/new.ts", content: "x\n" } }] }), timestamp: "2026-05-02T00:00:00.000Z" })}\n`,
    );
    await index.refresh();
    assert.equal(index.sessionReads, 4, "only the grown pi session is read again");
    assert.deepEqual(index.lookup(join(w.main, "src", "new.ts")).map((t) => [t.agent, t.operation, t.newText]), [["pi", "write", "x\n"]]);

    const fresh = newIndex(w, cacheDir);
    await fresh.refresh();
    assert.equal(fresh.sessionReads, 0, "a new index takes every unchanged session from the cache file");
    assert.deepEqual(
      fresh.lookup(join(w.main, "src", "app.ts")).map((t) => t.entryId),
      index.lookup(join(w.main, "src", "app.ts")).map((t) => t.entryId),
    );
  });

  it("a session that goes away leaves the index; an unreadable one is a problem, not a failure", async () => {
    const w = buildHistoryWorld();
    const index = newIndex(w);
    await index.refresh();
    writeFileSync(w.ccFile, "");
    await index.refresh();
    assert.deepEqual(index.lookup(join(w.main, "src", "other.ts")), []);
    assert.equal(index.lookup(join(w.main, "src", "app.ts")).filter((t) => t.agent === "claude-code").length, 0);
  });

  it("a session larger than the history reads is left out with its size and the limit named, the others indexed", async () => {
    const w = buildHistoryWorld();
    // Blank lines (skipped by every reader) make the pi session the largest of the three.
    appendFileSync(w.piFile, "\n".repeat(10_000));
    const piBytes = statSync(w.piFile).size;
    const index = new HistoryIndex({ dirs: w.dirs, only: Object.keys(w.dirs), env: w.env, maxSessionBytes: piBytes - 1 });
    await index.refresh();
    assert.equal(index.problems.length, 1, JSON.stringify(index.problems));
    assert.equal(index.problems[0].path, w.piFile);
    assert.match(index.problems[0].reason, new RegExp(`^${piBytes} bytes, more than the ${piBytes - 1} bytes the history reads of one session`));
    assert.deepEqual(index.lookup(join(w.main, "src", "app.ts")).map((t) => t.agent), ["codex", "claude-code"]);
  });

  it("lookupFileHistory: the same list through the shared entry point, newest first", async () => {
    const w = buildHistoryWorld();
    const got = await lookupFileHistory(join(w.main, "src", "app.ts"), { dirs: w.dirs, only: Object.keys(w.dirs), env: w.env });
    assert.deepEqual(
      got.map((t) => t.agent),
      ["codex", "pi", "pi", "claude-code"],
    );
  });

  it("repository identity: remotes spelt differently meet, a worktree's .git file leads to its repository's config", () => {
    assert.equal(normalizedRemote("git@GitHub.com:ana/proj.git"), "github.com/ana/proj");
    assert.equal(normalizedRemote("https://github.com/ana/proj/"), "github.com/ana/proj");
    assert.equal(normalizedRemote("ssh://git@github.com/ana/proj.git"), "github.com/ana/proj");
    const w = buildHistoryWorld();
    const wt = join(w.base, "wt");
    mkdirSync(join(w.main, ".git", "worktrees", "wt"), { recursive: true });
    writeFileSync(join(w.main, ".git", "worktrees", "wt", "commondir"), "../..\n");
    mkdirSync(join(wt, "src"), { recursive: true });
    writeFileSync(join(wt, ".git"), `gitdir: ${join(w.main, ".git", "worktrees", "wt")}\n`);
    const a = repoOf(join(w.main, "src"));
    const b = repoOf(join(wt, "src"));
    assert.equal(a?.root, w.main);
    assert.equal(b?.root, wt);
    assert.equal(a?.key, b?.key);
    assert.equal(repoOf(join(w.base, "clones"))?.key, undefined);
  });
});
