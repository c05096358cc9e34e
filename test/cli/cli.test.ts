import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { main, OUT_BLOCK } from "../../src/cli/main";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import { fixture, needFixtures } from "../helpers/fixtures";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");

function ase(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024, env: { ...process.env, XDG_CACHE_HOME: tempDir(), ...env } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function small(dir?: string): string {
  return writeSession(
    [
      header(),
      user("00000001", null, "hello <script>alert(1)</script> \u001b[31mred\u001b[0m"),
      assistant("00000002", "00000001", "hi", { toolCalls: [{ id: "t1", name: "read", arguments: { path: "src/a.ts" } }] }),
      entry("label", "00000003", "00000002", { targetId: "00000001", label: "start" }),
      user("00000004", "00000002", "branch b"),
    ],
    { dir },
  );
}

describe("ase CLI", () => {
  it("errors: exit 2, one line on stderr, nothing on stdout, nothing written", function () {
    // Each case starts a CLI process: seconds apiece on a busy machine.
    this.timeout(120_000);
    const dir = tempDir();
    const file = small(dir);
    const notSession = join(dir, "x.jsonl");
    writeFileSync(notSession, '{"hello":1}\n');
    const notJson = join(dir, "notes.txt");
    writeFileSync(notJson, "root:x:0:0\nsecond line\n");
    const cases: Array<[string[], RegExp]> = [
      [["tree", join(dir, "missing.jsonl")], /no such file/],
      [["tree", notSession], /not a pi session file: first line is not a session header \(line 1 is an object without "type":"session"; expected \{"type":"session","id":"\.\.\."\}\)$/],
      // Nothing of a file that is not a session is echoed (it may be any file on the machine).
      [["tree", notJson], /not a pi session file: first line is not a session header \(no JSON line in 2 line\(s\); expected \{"type":"session",\.\.\.\}\)$/],
      [["context", file, "--leaf", "zzzz"], /no entry with id "zzzz"/],
      [["context", file, "--format", "html"], /--format must be native, pi, anthropic, xml or chain/],
      [["tree", file, "--bogus"], /Unknown option '--bogus'/],
      [["fork", file], /missing --at ID/],
      [["fork", file, "--at", "nope"], /no entry with id "nope"/],
      [["context", file, "--max-tokens", "ten", "--format", "xml"], /whole number/],
      [["frobnicate"], /unknown command "frobnicate"/],
    ];
    for (const [args, re] of cases) {
      const r = ase(args);
      assert.equal(r.code, 2, `${args.join(" ")}: exit code`);
      assert.equal(r.out, "", `${args.join(" ")}: stdout`);
      assert.equal(r.err.trimEnd().split("\n").length, 1, `${args.join(" ")}: one line: ${r.err}`);
      assert.match(r.err.trimEnd(), re);
      assert.ok(!/root:x|"hello"|second line/.test(r.err), `${args.join(" ")}: no file content in ${r.err}`);
    }
    assert.deepEqual(readdirSync(dir).sort(), ["notes.txt", "session.jsonl", "x.jsonl"]);
  });

  it("a relative path into a pi `--<cwd>--` folder is read as a path, not an option", () => {
    const root = tempDir();
    const dir = join(root, projectDirName("/home/ana/proj"));
    mkdirSync(dir, { recursive: true });
    small(dir);
    const r = spawnSync(process.execPath, [CLI, "tree", `${projectDirName("/home/ana/proj")}/session.jsonl`], { encoding: "utf8", cwd: root });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /00000004 user: branch b/);
  });

  it("tree: connectors, active leaf, labels, no raw control characters", () => {
    const r = ase(["tree", small()]);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trimEnd().split("\n");
    assert.match(lines[1], /^• 00000001 user \[start\]: hello <script>alert\(1\)<\/script> ⟨U\+001B⟩\[31mred⟨U\+001B⟩\[0m · \d+/);
    assert.ok(!r.out.includes("\u001b"), "ESC shown as a mark, never raw");
    // The hidden label entry leaves one shown child, so the chain stays in one column.
    assert.match(lines[3], /^◉ 00000004 user: branch b · \d+ {2}← leaf$/);
    const all = ase(["tree", small(), "--all"]).out.trimEnd().split("\n");
    assert.match(all[3], /^├─ {3}00000003 label: label 00000001: start$/);
    assert.match(all[4], /^└─ ◉ 00000004 user: branch b/);
    const json = JSON.parse(ase(["tree", small(), "--json"]).out);
    assert.equal(json.leafId, "00000004");
    assert.deepEqual(json.entries.map((e: { id: string }) => e.id), ["00000001", "00000002", "00000004"]);
  });

  it("context: pi, anthropic and xml formats on stdout as JSON", () => {
    const file = small();
    const pi = JSON.parse(ase(["context", file, "--leaf", "00000002"]).out);
    assert.equal(pi.leafId, "00000002");
    assert.equal(pi.messages.length, 2);
    const sys = join(tempDir(), "system.md");
    writeFileSync(sys, "SYSTEM PROMPT");
    const an = JSON.parse(ase(["context", file, "--format", "anthropic", "--system", sys]).out);
    assert.equal(an.system, "SYSTEM PROMPT");
    assert.deepEqual(an.messages.map((m: { role: string }) => m.role), ["user", "assistant", "user"]);
    const xml = JSON.parse(ase(["context", file, "--format", "xml", "--max-tokens", "5"]).out);
    assert.ok(xml.excluded.length > 0);
    assert.ok(xml.tokens <= 5);
  });

  it("files and fork", function () {
    // Each case starts a CLI process: seconds apiece on a busy machine.
    this.timeout(120_000);
    const dir = tempDir();
    const file = small(dir);
    const files = JSON.parse(ase(["files", file, "--json"]).out);
    assert.deepEqual(files.readFiles, ["src/a.ts"]);
    const before = readFileSync(file);
    const r = ase(["fork", file, "--at", "00000002"]);
    assert.equal(r.code, 0, r.err);
    const forked = r.out.trim();
    assert.ok(readFileSync(file).equals(before));
    const ctxA = JSON.parse(ase(["context", forked]).out);
    const ctxB = JSON.parse(ase(["context", file, "--leaf", "00000002"]).out);
    assert.deepEqual(ctxA.messages, ctxB.messages);
  });

  it("list: sessions dir from --dir or PI_CODING_AGENT_DIR, grouped by project", function () {
    // Each case starts a CLI process: seconds apiece on a busy machine.
    this.timeout(120_000);
    const agent = tempDir();
    const dir = join(agent, "sessions", projectDirName("/home/ana/proj"));
    mkdirSync(dir, { recursive: true });
    small(dir);
    const r = ase(["list", "--json"], { PI_CODING_AGENT_DIR: agent });
    assert.equal(r.code, 0, r.err);
    const out = JSON.parse(r.out);
    assert.equal(out.projects[0].cwd, "/home/ana/proj");
    assert.equal(out.projects[0].sessions[0].entryCount, 4);
    const text = ase(["list", "--dir", join(agent, "sessions")]).out;
    assert.match(text, /\/home\/ana\/proj {2}\(1 session\)/);
  });

  it("real session: tree marks the compactions; context equals the golden", function () {
    needFixtures(this);
    const r = ase(["tree", fixture("before-compaction.jsonl")]);
    assert.equal(r.code, 0);
    assert.equal((r.out.match(/ ⟲: compaction: \d+ tokens before, kept from [0-9a-f]{8}/g) ?? []).length, 2);
    const ctx = JSON.parse(ase(["context", fixture("large-session.jsonl")]).out);
    const gold = JSON.parse(readFileSync(fixture("large-session.context.json"), "utf8"));
    assert.equal(ctx.messages.length, gold.messages.length);
  });
});

describe("ase CLI output", () => {
  it("goes out in blocks of about 1 MB, waiting for the reader whenever stdout asks to", async () => {
    // ENOBUFS came from a million small writes queued on a slow pipe (ase tree of 1.6 GB).
    const lines: Array<Record<string, unknown>> = [header()];
    let parent: string | null = null;
    for (let k = 0; k < 30_000; k++) {
      const id = k.toString(16).padStart(8, "0");
      lines.push(user(id, parent, `message number ${k} with some words to fill the row`));
      parent = id;
    }
    const file = writeSession(lines);
    const io = (out: (t: string) => unknown, drained?: () => Promise<void>) => ({ out, drained, err: () => undefined, env: { XDG_CACHE_HOME: tempDir() }, cwd: process.cwd() });
    const plain: string[] = [];
    assert.equal(await main(["tree", file], io((t) => plain.push(t))), 0);
    const blocks: string[] = [];
    let waits = 0;
    let pending = false;
    const code = await main(["tree", file], io(
      (t) => {
        assert.equal(pending, false, "wrote again before the reader drained");
        blocks.push(t);
        pending = true;
        return false;
      },
      async () => {
        waits++;
        pending = false;
      },
    ));
    assert.equal(code, 0);
    assert.equal(blocks.join(""), plain.join(""));
    assert.ok(blocks.length >= 2, `only ${blocks.length} block(s)`);
    // 30,000 rows, each its own piece inside the command, went out in a handful of writes.
    const text = plain.join("");
    assert.ok(text.split("\n").length > 30_000);
    assert.ok(blocks.length <= Math.ceil(text.length / OUT_BLOCK), `${blocks.length} writes for ${text.length} chars`);
    for (const b of blocks.slice(0, -1)) assert.ok(b.length >= OUT_BLOCK && b.length < OUT_BLOCK + 4096, `block of ${b.length}`);
    assert.equal(waits, blocks.length);
  });
});
