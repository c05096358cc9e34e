import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { formatOf, openSession } from "../../src/core/formats/registry";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";

async function ase(args: string[]) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env: {}, cwd: process.cwd() });
  return { code, out, err };
}

/** A pi session: a branch point after a1 (u2/a2 against u2b/a2b/u3b/a3b), then a compaction on the second branch. */
function session(dir?: string): string {
  return writeSession(
    [
      header(),
      user("u1", null, "look at the parser"),
      assistant("a1", "u1", "I read it."),
      user("u2", "a1", "please fix the parser bug now \u001b[31mred\u001b[0m"),
      assistant("a2", "u2", "Fixed the parser."),
      user("u2b", "a1", "please fix the lexer bug now"),
      assistant("a2b", "u2b", "Fixed the lexer."),
      user("u3b", "a2b", "and add a test for it"),
      assistant("a3b", "u3b", "Added one test."),
      entry("compaction", "c1", "a3b", { summary: "Fixed the lexer; a test was added.", firstKeptEntryId: "u3b", tokensBefore: 900 }),
      user("u4", "c1", "next"),
    ],
    { dir },
  );
}

describe("ase diff", () => {
  it("text: both sides, the shared prefix, markers per op with the word diff inline, tokens per part", async () => {
    const file = session();
    const r = await ase(["diff", file, "--a", "a2", "--b", "a3b"]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
    const lines = r.out.split("\n");
    assert.match(lines[0], /^A: .*session\.jsonl {2}leaf a2 {2}\(pi, 4 messages, [\d,]+ context tokens\)$/);
    assert.match(lines[1], /^B: .*leaf a3b {2}\(pi, 6 messages/);
    assert.match(lines[2], /^shared prefix: 2 messages \(\d+ tokens\)$/);
    // Session text is shown, never obeyed: the escape sequence is marked.
    assert.match(lines[3], /^ {2}~ #3 user u2 -> u2b \(\d+ -> \d+ tokens\): please fix the \[-parser-\]\{\+lexer\+\} bug now \[-⟨U\+001B⟩\[31mred⟨U\+001B⟩\[0m-\]$/);
    assert.match(lines[4], /^ {2}~ #4 assistant a2 -> a2b .*Fixed the \[-parser\.-\]\{\+lexer\.\+\}$/);
    assert.match(lines[5], /^ {2}\+ #5 user u3b \(\d+ tokens\): and add a test for it$/);
    assert.match(lines[6], /^ {2}\+ #6 assistant a3b/);
    assert.ok(!r.out.includes("\u001b"));
    assert.match(r.out, /\n {2}part +A +B +B - A\n {2}user +\d+ +\d+ +\+\d+\n {2}assistant.*\n {2}all messages.*\n {2}unrecorded overhead.*\n {2}context \(agent's count\)/);
  });

  it("--json: the documented shape", async () => {
    const file = session();
    const r = await ase(["diff", file, "--a", "a2", "--b", "a3b", "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j), ["a", "b", "sharedPrefix", "ops", "tokens"]);
    assert.deepEqual(Object.keys(j.a), ["path", "leafId", "contextTokens", "messages"]);
    assert.equal(j.a.leafId, "a2");
    assert.equal(j.b.path, j.a.path);
    assert.equal(j.sharedPrefix.messages, 2);
    assert.deepEqual(j.ops.map((o: { op: string }) => o.op), ["changed", "changed", "onlyB", "onlyB"]);
    assert.deepEqual(Object.keys(j.ops[0]), ["op", "a", "b", "words"]);
    assert.deepEqual(Object.keys(j.ops[0].a), ["index", "entryId", "kind", "tokens"]);
    assert.deepEqual(j.ops[0].words.slice(0, 3), [
      { op: "=", text: "please fix the" },
      { op: "-", text: "parser" },
      { op: "+", text: "lexer" },
    ]);
    assert.deepEqual(Object.keys(j.ops[2]), ["op", "b"]);
    assert.deepEqual(Object.keys(j.tokens), ["byKind", "overhead", "messages", "total"]);
    for (const v of [j.tokens.byKind.user, j.tokens.messages, j.tokens.total]) assert.equal(v.delta, v.b - v.a);
    // Exact data: session text is kept as it is in JSON.
    assert.ok(r.out.includes("\\u001b[31mred"));
  });

  it("--against: a fork against its source; each side defaults to its file's leaf", async () => {
    const dir = tempDir();
    const file = session(dir);
    const s = await openSession(file);
    const fork = formatOf(s).writer?.fork(s, "a2", { dir });
    assert.ok(fork);
    const r = await ase(["diff", fork.path, "--against", file, "--b", "a3b", "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.a.path, fork.path);
    assert.equal(j.a.leafId, "a2");
    assert.equal(j.b.path, file);
    assert.equal(j.sharedPrefix.messages, 2);
    const same = await ase(["diff", fork.path, "--against", file, "--b", "a2"]);
    assert.match(same.out, /shared prefix: 4 messages .*\n {2}\(nothing after it: both sides send the same messages\)/);
  });

  it("--compaction: before against after; the JSON names both leaves", async () => {
    const file = session();
    const r = await ase(["diff", file, "--compaction", "c1"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^compaction c1: A = the context just before it \(at a3b\), B = just after it \(at c1\)\n/);
    assert.match(r.out, /\n {2}- #1 user u1 .*\n {2}- #2 assistant a1 .*\n {2}- #3 user u2b .*\n {2}- #4 assistant a2b .*\n {2}\+ #1 summary c1 .*\n {2}= 2 messages the same: A #5-#6, B #2-#3 \(\d+ tokens\)\n/);
    const j = JSON.parse((await ase(["diff", file, "--compaction", "c1", "--json"])).out);
    assert.deepEqual(j.compaction, { entryId: "c1", before: "a3b", after: "c1" });
    assert.ok(j.tokens.byKind.summary.b > 0 && j.tokens.byKind.summary.a === 0);
  });

  it("--compaction on a Claude Code partial compaction: the chain as it was before, the summary with the kept messages after", async () => {
    const v = (n: number) => `cc200000-0000-4000-8000-${String(n).padStart(12, "0")}`;
    const file = join(process.cwd(), "test", "fixtures", "claude-code", "compaction-side-results.jsonl");
    const r = await ase(["diff", file, "--compaction", v(9), "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    const boundary = JSON.parse(readFileSync(file, "utf8").split("\n").find((l) => l.includes(`"uuid":"${v(9)}"`)) as string);
    assert.equal(j.compaction.before, boundary.logicalParentUuid);
    // It kept 7..8 (preservedSegment): after it, the context is the summary, then the kept response (the kept prompt merged into the summary's turn).
    assert.equal(j.compaction.after, v(8));
    assert.equal(j.b.messages, 2);
    assert.ok(j.ops.some((o: { b?: { entryId: string; kind: string } }) => o.b?.entryId === v(10) && o.b.kind === "summary"));
    assert.ok(!j.ops.some((o: { op: string; a?: { entryId: string } }) => o.op === "onlyA" && o.a?.entryId === v(8)), "the kept response is not shown as deleted");
    assert.ok(j.ops.some((o: { op: string; a?: { entryId: string } }) => o.op === "same" && o.a?.entryId === v(8)));
    assert.ok(!j.ops.some((o: { op: string; a?: { entryId: string } }) => o.a?.entryId === v(10)), "the summary is not in the context before it");
  });

  it("errors: exit 2, one line on stderr naming the file or flag, nothing on stdout", async () => {
    const file = session();
    const other = writeSession([header(), user("x1", null, "hi")]);
    const cases: Array<[string[], RegExp]> = [
      [["diff", file, "--a", "a2"], /^ase diff: missing --b ID \(usage: /],
      [["diff", file], /^ase diff: missing --a ID/],
      [["diff", file, "--a", "nope", "--b", "a2"], /session\.jsonl: no entry with id "nope" \(given by --a\)$/],
      [["diff", file, "--a", "a2", "--b", "a2", "--against", other], new RegExp(`${other.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: no entry with id "a2" \\(given by --b\\)$`)],
      [["diff", file, "--compaction", "c1", "--a", "a2"], /--compaction compares .* it takes no --a /],
      [["diff", file, "--compaction", "u1"], /entry "u1" is not a compaction \(it is user\)$/],
      [["diff", file, "--compaction", "zz"], /no entry with id "zz" \(given by --compaction\)$/],
      [["diff", file, "--a", "a2", "--b", "a2", "--against", join(tempDir(), "missing.jsonl")], /no such file/],
      [["diff", file, "--bogus"], /Unknown option '--bogus'/],
    ];
    for (const [args, re] of cases) {
      const r = await ase(args);
      assert.equal(r.code, 2, `${args.join(" ")}: exit code (${r.err})`);
      assert.equal(r.out, "", `${args.join(" ")}: stdout`);
      assert.equal(r.err.trimEnd().split("\n").length, 1, `${args.join(" ")}: one line: ${r.err}`);
      assert.match(r.err.trimEnd(), re);
    }
  });
});
