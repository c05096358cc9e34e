import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SESSION, fragment, jsonl, text, user } from "../formats/claude-code/lines";
import { tempDir } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");
/** Far above what these commands need on a busy machine, far below a hang. */
const LIMIT_MS = 60_000;

/**
 * Runs the built CLI with a time limit: a command that hangs (on a FIFO) is killed and
 * the test fails on it, rather than the suite hanging.
 */
function ase(args: string[], opts: { uid?: number; cwd?: string } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    timeout: LIMIT_MS,
    killSignal: "SIGKILL",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, XDG_CACHE_HOME: tempDir(), HOME: tempDir(), CLAUDE_CONFIG_DIR: "" },
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
    ...(opts.cwd ? { cwd: opts.cwd } : {}),
  });
  assert.equal(r.signal, null, `ase ${args.join(" ")} did not finish in ${LIMIT_MS} ms (killed)`);
  return { code: r.status, out: r.stdout.toString("utf8"), err: r.stderr.toString("utf8") };
}

function mkfifo(path: string): string {
  const r = spawnSync("mkfifo", [path]);
  assert.equal(r.status, 0, `mkfifo: ${r.stderr}`);
  return path;
}

/** One line on stderr, exit 2, naming the file and what it is. */
function assertRefused(r: ReturnType<typeof ase>, path: string, what: RegExp, args: string[]): void {
  assert.equal(r.code, 2, `ase ${args.join(" ")}: exit ${r.code}, stderr: ${r.err}`);
  const lines = r.err.trimEnd().split("\n");
  assert.equal(lines.length, 1, `one line: ${r.err}`);
  assert.ok(lines[0].includes(path), lines[0]);
  assert.match(lines[0], what);
}

describe("ase on files that are no regular files: exit 2, one line, quickly", function () {
  this.timeout(10 * LIMIT_MS);

  it("a FIFO named x.jsonl: tree, context, files, tokens, fork, search --file and cost refuse it", () => {
    const fifo = mkfifo(join(tempDir(), "x.jsonl"));
    const runs = [["tree", fifo], ["context", fifo], ["files", fifo], ["tokens", fifo], ["fork", fifo, "--at", "00000001"], ["cost", fifo], ["search", "hello", "--file", fifo]];
    for (const args of runs) assertRefused(ase(args), fifo, /is a FIFO, not a regular file/, args);
  });

  it("--prices on a FIFO and on /dev/zero: exit 2 at once, nothing read", () => {
    const dir = tempDir();
    const session = join(dir, "s.jsonl");
    writeFileSync(session, jsonl([user("u1", null, "hi"), fragment("a1", "u1", "msg_1", text("hello"))]));
    const fifo = mkfifo(join(dir, "prices.json"));
    const started = Date.now();
    assertRefused(ase(["cost", session, "--prices", fifo]), fifo, /--prices .*is a FIFO, not a regular file/, ["cost", "--prices", fifo]);
    assertRefused(ase(["cost", session, "--prices", "/dev/zero"]), "/dev/zero", /--prices .*is a character device, not a regular file/, ["cost", "--prices", "/dev/zero"]);
    assert.ok(Date.now() - started < LIMIT_MS, "quick");
  });

  it("--prices on a file larger than a prices file can be: exit 2 naming the cap", () => {
    const big = join(tempDir(), "prices.json");
    writeFileSync(big, `{"x":"${"y".repeat(5 * 1024 * 1024)}"}`);
    const r = ase(["cost", "--total", "--prices", big, "--dir", `claude-code=${tempDir()}`]);
    assertRefused(r, big, /larger than/, ["cost", "--total", "--prices", big]);
  });
});

describe("a Claude Code transcript whose first line is 1 MiB (a long pasted prompt)", function () {
  this.timeout(10 * LIMIT_MS);

  it("is read as Claude Code by tree, found by search and listed by list", () => {
    const root = tempDir();
    const proj = join(root, "projects", "-home-dev-demo");
    mkdirSync(proj, { recursive: true });
    const file = join(proj, `${SESSION}.jsonl`);
    const prompt = `please look at this log ${"x".repeat(1024 * 1024)} and find the needleword`;
    writeFileSync(file, jsonl([user("u1", null, prompt), fragment("a1", "u1", "msg_1", text("found it"))]));
    const tree = ase(["tree", file]);
    assert.equal(tree.code, 0, tree.err);
    assert.match(tree.out, /found it/);
    const search = ase(["search", "needleword", "--dir", `claude-code=${root}`, "--agent", "claude-code", "--json"]);
    assert.equal(search.code, 0, search.err);
    assert.ok(search.out.includes(file), `the hit in ${file}: ${search.out.slice(0, 500)} ${search.err}`);
    const list = ase(["list", "--dir", `claude-code=${root}`, "--agent", "claude-code", "--json", "--no-cache"]);
    assert.equal(list.code, 0, list.err);
    assert.ok(list.out.includes(SESSION), list.out.slice(0, 500));
  });
});

describe("ase list with a project folder it cannot read", function () {
  this.timeout(10 * LIMIT_MS);

  it("says so on stderr and still lists the other folders", function () {
    // chmod 000 stops everyone but root: as root the CLI runs as nobody (uid 65534), so the
    // folder is really unreadable to it (EACCES from the kernel, nothing injected).
    const root = process.getuid?.() === 0;
    const store = tempDir();
    chmodSync(store, 0o755);
    const projects = join(store, "projects");
    const good = join(projects, "-home-dev-demo");
    const shut = join(projects, "-home-dev-shut");
    mkdirSync(good, { recursive: true });
    mkdirSync(shut, { recursive: true });
    writeFileSync(join(good, `${SESSION}.jsonl`), jsonl([user("u1", null, "hello"), fragment("a1", "u1", "msg_1", text("hi"))]));
    writeFileSync(join(shut, "cc111111-0000-4000-8000-000000000000.jsonl"), jsonl([user("u1", null, "hidden"), fragment("a1", "u1", "msg_1", text("hi"))]));
    for (const d of [projects, good]) chmodSync(d, 0o755);
    chmodSync(join(good, `${SESSION}.jsonl`), 0o644);
    chmodSync(shut, 0o000);
    try {
      const r = ase(["list", "--dir", `claude-code=${store}`, "--agent", "claude-code", "--no-cache"], root ? { uid: 65534, cwd: "/" } : {});
      assert.equal(r.code, 0, r.err);
      assert.ok(r.out.includes("hello"), `the readable session is listed: ${r.out}`);
      assert.match(r.err, new RegExp(`${shut.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}.*cannot read.*EACCES`), r.err);
      // The listing's data (what the Sessions view shows its note from) carries it too.
      const json = ase(["list", "--dir", `claude-code=${store}`, "--agent", "claude-code", "--no-cache", "--json"], root ? { uid: 65534, cwd: "/" } : {});
      assert.equal(json.code, 0, json.err);
      const notes = (JSON.parse(json.out) as { notes: Array<{ path: string; reason: string }> }).notes;
      assert.deepEqual(notes.map((n) => n.path), [shut]);
      assert.match(notes[0].reason, /cannot read this folder \(EACCES\)/);
    } finally {
      chmodSync(shut, 0o755);
    }
  });
});
