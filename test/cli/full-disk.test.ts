import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { assistant, header, tempDir, user } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");

function ase(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", cwd, env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A real small file system: a 300 KB tmpfs. Needs root and mount(2); else the test says why it skips. */
function mountTmpfs(): string {
  const dir = join(tempDir(), "disk");
  mkdirSync(dir);
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=300k", "tmpfs", dir], { stdio: "pipe" });
  } catch (err) {
    rmdirSync(dir);
    throw new Error(`cannot mount a tmpfs here (${String((err as { stderr?: Buffer }).stderr ?? err).trim()})`);
  }
  return dir;
}

/** The issue's session: 12,282 bytes (6 short of a 4 KB block), leaf pad00001. */
function issueSession(dir: string): string {
  const file = join(dir, "session.jsonl");
  const build = (pad: number) => {
    const lines = [header({ cwd: "/home/ana/proj" })];
    let parent: string | null = null;
    for (let i = 1; i <= 6; i++) {
      const u = `u000000${i}`;
      const a = `a000000${i}`;
      lines.push(user(u, parent, `question ${i} `.repeat(40)), assistant(a, u, `answer ${i} `.repeat(60)));
      parent = a;
    }
    lines.push(user("pad00001", parent, "x".repeat(pad)));
    return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
  };
  const base = Buffer.byteLength(build(0));
  const text = build(12_282 - base);
  assert.equal(Buffer.byteLength(text), 12_282);
  writeFileSync(file, text);
  return file;
}

/** Fills the disk: a filler file grows until the file system refuses. */
function fill(dir: string): void {
  const chunk = Buffer.alloc(4096, 0x2e);
  const filler = join(dir, "filler");
  writeFileSync(filler, "");
  for (;;) {
    try {
      writeFileSync(filler, chunk, { flag: "a" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOSPC") break;
      throw err;
    }
  }
  // The last partial chunk may still fit in smaller pieces.
  for (let n = 2048; n >= 1; n = Math.floor(n / 2)) {
    try {
      writeFileSync(filler, chunk.subarray(0, n), { flag: "a" });
    } catch {
      // full at this size
    }
  }
}

describe("a real full disk (tmpfs) and a read-only one", () => {
  let disk: string | undefined;
  let why = "";
  before(function () {
    this.timeout(30_000);
    try {
      disk = mountTmpfs();
    } catch (err) {
      why = (err as Error).message;
    }
  });
  after(() => {
    if (disk) execFileSync("umount", [disk]);
  });

  it("the issue's scenario: ase compact on a full disk exits 2, says nothing was written, the file is byte-identical", function () {
    this.timeout(120_000);
    if (!disk) {
      console.log(`      (skipped: ${why}; the same faults are injected byte by byte in test/core/append-faults)`);
      this.skip();
    }
    const file = issueSession(disk);
    const before = readFileSync(file);
    fill(disk);
    const r = ase(["compact", file, "--strategy", "truncate", "--keep-recent", "1", "--leaf", "pad00001"]);
    assert.equal(r.code, 2, r.err);
    assert.equal(r.out, "");
    assert.match(r.err, new RegExp(`^ase compact: nothing written: ${file}: short write \\(6 of \\d+ bytes: no space left on device \\(ENOSPC\\)\\); it is back to its 12282 bytes\\n$`));
    assert.equal(statSync(file).size, 12_282);
    assert.ok(readFileSync(file).equals(before), "byte-identical");
    // A fork on the same full disk: nothing written, no temp file, no half session.
    const f = ase(["fork", file, "--at", "a0000003"]);
    assert.equal(f.code, 2);
    assert.match(f.err, /^ase fork: nothing written: .*\.jsonl: (short write \(\d+ of \d+ bytes: |cannot write: )no space left on device \(ENOSPC\)/);
    assert.deepEqual(readdirSync(disk).sort(), ["filler", "session.jsonl"], "no fork, no temp file, no lock left");
    // Room again: the same command appends exactly one whole line.
    execFileSync("truncate", ["-s", "0", join(disk, "filler")]);
    const ok = ase(["compact", file, "--strategy", "truncate", "--keep-recent", "1", "--leaf", "pad00001"]);
    assert.equal(ok.code, 0, ok.err);
    const after = readFileSync(file);
    assert.ok(after.subarray(0, before.length).equals(before));
    const added = after.subarray(before.length).toString("utf8");
    assert.match(added, /^\{"type":"compaction".*\}\n$/);
  });

  it("a read-only file system: every write command refuses with the reason, nothing changes", function () {
    this.timeout(120_000);
    if (!disk) this.skip();
    rmSync(join(disk, "filler"), { force: true });
    const dir = join(disk, "ro");
    mkdirSync(dir);
    const file = issueSession(dir);
    const before = readFileSync(file);
    execFileSync("mount", ["-o", "remount,ro", disk]);
    try {
      const c = ase(["compact", file, "--strategy", "truncate", "--keep-recent", "1"]);
      assert.equal(c.code, 2);
      assert.match(c.err, /^ase compact: nothing written: .*session\.jsonl: cannot create the lock file .*\.session\.jsonl\.ase-lock: read-only file system \(EROFS\)\n$/);
      const b = ase(["branch", file, "--to", "a0000002"]);
      assert.equal(b.code, 2);
      assert.match(b.err, /^ase branch: nothing written: .*read-only file system \(EROFS\)\n$/);
      const f = ase(["fork", file, "--at", "a0000002"]);
      assert.equal(f.code, 2);
      assert.match(f.err, /^ase fork: nothing written: cannot create a file in .*: read-only file system \(EROFS\)\n$/);
      assert.ok(readFileSync(file).equals(before));
      assert.deepEqual(readdirSync(dir), ["session.jsonl"]);
    } finally {
      execFileSync("mount", ["-o", "remount,rw", disk]);
    }
  });
});
