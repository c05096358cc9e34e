import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { main } from "../../src/cli/main";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import { HOSTILE, MARKS, RAW_HIDDEN, writeHostileSession } from "../helpers/hostile-session";
import { tempDir } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");

/** Runs the built CLI; stdout and stderr as the bytes a terminal would get. */
function ase(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { maxBuffer: 256 * 1024 * 1024, env: { ...process.env, XDG_CACHE_HOME: tempDir() } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * Nothing that hides, reorders or drives the terminal: no ESC, NUL or bidi override.
 * (A lone surrogate cannot be seen in bytes: Node writes it as U+FFFD, as the index's
 * UTF-8 previews hold it; the in-process test below checks the strings.)
 */
function assertInert(bytes: Buffer, what: string): string {
  const text = bytes.toString("utf8");
  assert.ok(!bytes.includes(0x1b), `${what}: raw ESC`);
  assert.ok(!bytes.includes(0x00), `${what}: raw NUL`);
  assert.ok(!bytes.includes(Buffer.from("\u202E")), `${what}: raw U+202E`);
  const m = RAW_HIDDEN.exec(text);
  assert.equal(m, null, `${what}: raw U+${m?.[0].charCodeAt(0).toString(16)}`);
  return text;
}

describe("ase CLI on a hostile session: human outputs show marks, JSON stays exact", function () {
  // Each case starts a CLI process on a session with a 1 MB line: seconds on a busy machine.
  this.timeout(180_000);
  let file: string;
  let agent: string;

  before(() => {
    agent = tempDir();
    const dir = join(agent, "sessions", projectDirName("/home/ana/proj"));
    mkdirSync(dir, { recursive: true });
    file = writeHostileSession(dir).file;
  });

  it("tree: names, labels, previews and the session name are marked; a label's line break forges no row", () => {
    for (const args of [["tree", file], ["tree", file, "--all"]]) {
      const r = ase(args);
      assert.equal(r.code, 0, r.err.toString());
      const out = assertInert(r.out, args.join(" "));
      assertInert(r.err, `${args.join(" ")} stderr`);
      const lines = out.trimEnd().split("\n");
      assert.ok(lines[0].includes(`invoice${MARKS.rlo}fdp.exe ${HOSTILE.html} ${MARKS.esc}[31mRED`), lines[0].slice(0, 200));
      const first = lines.find((l) => l.includes(" 00000001 "));
      assert.ok(first, "row of the first entry");
      assert.ok(first.includes(`[${HOSTILE.html}ok\\n◉ 99999999 user: forged rowa${MARKS.nul}blone${MARKS.lone}x${MARKS.rlo}]`), first);
      assert.ok(first.includes(`${HOSTILE.script} ${MARKS.esc}[31mRED${MARKS.esc}[0m${MARKS.esc}]0;pwned-ti`), first);
      assert.equal(lines.filter((l) => /^\S*\s*◉ 99999999/.test(l)).length, 0, "no forged row");
      const big = lines.find((l) => l.includes(" 00000007 "));
      // Clipped with its length shown (issue 23): a megabyte label is not a megabyte row.
      assert.ok(big && big.length < 4096 && big.includes(`[${MARKS.rlo}big label yyy`) && /…\(\+[\d,]+ chars\)\]/.test(big), `the megabyte label, marked and clipped, on its row: ${big?.slice(0, 500)}`);
    }
    const all = ase(["tree", file, "--all"]);
    const custom = all.out.toString("utf8").split("\n").find((l) => l.includes(" 00000006 "));
    assert.ok(custom?.includes(`${HOSTILE.html}${MARKS.rlo}`), `custom type marked: ${custom}`);
  });

  it("list, files, tokens and compact --dry-run: paths, cwd, tool paths and the model are marked", () => {
    const list = assertInert(ase(["list", "--dir", join(agent, "sessions"), "--no-cache"]).out, "list");
    assert.ok(list.includes(`invoice${MARKS.rlo}fdp.exe`), list);
    const files = ase(["files", file]);
    assert.equal(files.code, 0, files.err.toString());
    assert.ok(assertInert(files.out, "files").includes(`src/${MARKS.rlo}txt.jsa${MARKS.nul}b`), files.out.toString());
    const tokens = ase(["tokens", file]);
    assert.equal(tokens.code, 0, tokens.err.toString());
    assert.ok(assertInert(tokens.out, "tokens").includes(`model anthropic/claude${MARKS.esc}[31mRED`), tokens.out.toString().slice(0, 300));
    const plan = ase(["compact", file, "--dry-run", "--strategy", "truncate", "--keep-recent", "1000"]);
    assertInert(plan.out, "compact --dry-run");
    assertInert(plan.err, "compact --dry-run stderr");
  });

  it("in process: no human output string holds a lone surrogate or another hidden character", async () => {
    const runs = [["tree", file, "--all"], ["files", file], ["tokens", file], ["list", "--dir", join(agent, "sessions"), "--no-cache"], ["tree", file, "--leaf", "\uDC00"]];
    for (const args of runs) {
      const out: string[] = [];
      const err: string[] = [];
      await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: { XDG_CACHE_HOME: tempDir() }, cwd: process.cwd() });
      for (const [name, text] of [["stdout", out.join("")], ["stderr", err.join("")]]) {
        const m = RAW_HIDDEN.exec(text);
        assert.equal(m, null, `${args[0]} ${name}: raw U+${m?.[0].charCodeAt(0).toString(16)}`);
      }
      if (args[0] === "tree" && args[2] === "--all") assert.ok(out.join("").includes(`blone${MARKS.lone}x`));
      if (args[2] === "--leaf") assert.match(err.join(""), /no entry with id "⟨U\+DC00⟩"/);
    }
  });

  it("errors: a hostile id given back on one line, marked", () => {
    const r = ase(["tree", file, "--leaf", `x${HOSTILE.rlo}\u001b[2Jy`]);
    assert.equal(r.code, 2);
    const err = assertInert(r.err, "stderr");
    assert.equal(err.trimEnd().split("\n").length, 1);
    assert.match(err, /no entry with id "x⟨U\+202E⟩⟨U\+001B⟩\[2Jy"/);
  });

  it("JSON outputs are the exact data (not marked)", () => {
    const tree = JSON.parse(ase(["tree", file, "--json"]).out.toString("utf8"));
    assert.equal(tree.name, `invoice${HOSTILE.rlo}fdp.exe ${HOSTILE.html} ${HOSTILE.ansi}`);
    const first = tree.entries.find((e: { id: string }) => e.id === "00000001");
    assert.equal(first.label, `${HOSTILE.html}${HOSTILE.forged}${HOSTILE.nul}${HOSTILE.lone}${HOSTILE.rlo}`);
    const ctx = JSON.parse(ase(["context", file]).out.toString("utf8"));
    assert.equal(ctx.model.modelId, `claude${HOSTILE.ansi}${HOSTILE.rlo}`);
  });
});
