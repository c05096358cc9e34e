import { strict as assert } from "node:assert";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../src/cli/main";
import { tempDir } from "../../helpers/session-builder";

const OURS = join(process.cwd(), "test", "fixtures", "claude-code");
const u = (n: number) => `cc100000-0000-4000-8000-${String(n).padStart(12, "0")}`;

async function ase(args: string[], cwd: string) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env: { XDG_CACHE_HOME: join(cwd, ".cache-home") }, cwd });
  return { code, out, err };
}

describe("ase on Claude Code transcripts: the error contract (exit 2, one line, nothing on stdout, nothing written)", () => {
  it("every command refuses bad input by naming the file and the flag, and writes nothing", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    copyFileSync(join(OURS, "rewind-split-sidechain.jsonl"), file);
    const before = readFileSync(file);
    const empty = join(dir, "empty.jsonl");
    writeFileSync(empty, "");
    const cases: Array<[string[], RegExp]> = [
      [["tree", file, "--leaf", "zzzz"], /^ase tree: .*s\.jsonl: no entry with id "zzzz" \(given by --leaf\)$/],
      [["context", file, "--leaf", "zzzz"], /^ase context: .*: no entry with id "zzzz" \(given by --leaf\)$/],
      [["context", file, "--format", "pi"], /^ase context: .*: a Claude Code session; --format pi is for pi sessions \(use native\)$/],
      [["tokens", file, "--leaf", "zzzz"], /^ase tokens: .*: no entry with id "zzzz" \(given by --leaf\)$/],
      [["tokens", file, "--exact"], /^ase tokens: --exact is for pi sessions; .* is a Claude Code session/],
      [["files", file, "--subtree", "zzzz"], /^ase files: .*: no entry with id "zzzz" \(given by --subtree\)$/],
      [["fork", file, "--at", "zzzz"], /^ase fork: .*: no entry with id "zzzz" \(given by --at\)$/],
      [["fork", file], /^ase fork: missing --at ID/],
      [["cost", file, "--by", "week"], /^ase cost: --by expects one of branch, model, day, got "week"$/],
      [["compact", file], /^ase compact: .*: a Claude Code session; compacting is offered for pi, ClawdCode sessions only \(Claude Code compacts and labels in its own session only\); nothing written$/],
      [["branch", file, "--to", u(2)], /^ase branch: .*: a Claude Code session; a branch summary is offered for pi sessions only \(Claude Code resumes from the leaf it chooses itself.*\); nothing written$/],
      [["tree", join(dir, "missing.jsonl")], /^ase tree: .*missing\.jsonl.*no such file/i],
      [["tree", empty], /^ase tree: .*empty\.jsonl/],
      [["list", "--agent", "claude"], /^ase list: unknown agent "claude"/],
    ];
    for (const [args, re] of cases) {
      const r = await ase(args, dir);
      const what = args.join(" ");
      assert.equal(r.code, 2, `${what}: exit code (${r.err})`);
      assert.equal(r.out, "", `${what}: stdout`);
      assert.equal(r.err.trimEnd().split("\n").length, 1, `${what}: one line: ${r.err}`);
      assert.match(r.err.trimEnd(), re, what);
    }
    assert.ok(readFileSync(file).equals(before), "the transcript is byte-identical");
    assert.deepEqual(readdirSync(dir).filter((n) => !n.startsWith(".cache")).sort(), ["empty.jsonl", "s.jsonl"]);
  });

  it("the same commands work on it: tree, context, tokens, files, cost, fork (a new file beside it), list", async () => {
    const dir = tempDir();
    const file = join(dir, "s.jsonl");
    copyFileSync(join(OURS, "rewind-split-sidechain.jsonl"), file);
    const before = readFileSync(file);
    for (const args of [["tree", file], ["context", file, "--format", "chain"], ["tokens", file, "--json"], ["files", file], ["cost", file, "--by", "model"]]) {
      const r = await ase(args, dir);
      assert.equal(r.code, 0, `${args.join(" ")}: ${r.err}`);
      assert.ok(r.out.length > 0, `${args.join(" ")} prints`);
    }
    const fork = await ase(["fork", file, "--at", u(11)], dir);
    assert.equal(fork.code, 0, fork.err);
    const made = readdirSync(dir).filter((n) => n !== "s.jsonl" && n.endsWith(".jsonl"));
    assert.equal(made.length, 1);
    assert.ok(fork.out.includes(made[0]), fork.out);
    assert.ok(readFileSync(file).equals(before));
  });
});
