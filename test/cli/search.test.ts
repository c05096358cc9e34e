import { strict as assert } from "node:assert";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { main } from "../../src/cli/main";
import * as cc from "../formats/claude-code/lines";
import { buildStores, type Stores } from "../helpers/search-stores";
import { header, tempDir, user, writeSession } from "../helpers/session-builder";

const CLI = resolve("dist/cli.js");

/** Runs `ase` in this process with an empty environment (no store of the machine's own is read). */
async function ase(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env: { HOME: tempDir() }, cwd: process.cwd() });
  return { code, out, err };
}

function dirArgs(st: Stores): string[] {
  return ["--dir", st.pi, "--dir", `claude-code=${st.claudeCode}`, "--dir", `clawdcode=${st.clawdcode}`];
}

describe("ase search", () => {
  let st: Stores;
  before(() => {
    st = buildStores();
  });

  it("text: hits grouped by session (path, agent, title), one line per hit with time, kind, entry id, line and snippet", async () => {
    const r = await ase(["search", "frobnicator", ...dirArgs(st), "--kind", "user"]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
    const lines = r.out.trimEnd().split("\n");
    assert.deepEqual(lines, [
      `${st.piFile}  [pi]  Please refactor the Frobnicator module`,
      lines[1],
      `${st.ccFile}  [claude-code]  Where is the uuid of a frobnicator kept?`,
      lines[3],
      `${st.clFile}  [clawdcode]  Set up the frobnicator CI`,
      lines[5],
      lines[6],
    ]);
    assert.match(lines[1], /^ {2}2026-01-01 \d\d:\d\d {2}user {11}p1 {2}line 2 {2}Please refactor the Frobnicator module$/);
    assert.match(lines[3], /^ {2}2026-03-01 10:00 {2}user {11}c1 {2}line 1 {2}Where is the uuid of a frobnicator kept\?$/);
    assert.match(lines[6], /^3 hit\(s\) in 3 session\(s\) \(scanned 3 file\(s\), [\d.]+ KB\)$/);
  });

  it("--json: the documented shape, exact session text", async () => {
    const r = await ase(["search", "FROBNICATOR", "--file", st.seedFile, "--file", st.piFile, "--kind", "tool", "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j), ["pattern", "regex", "sessions", "scanned"]);
    assert.equal(j.pattern, "FROBNICATOR");
    assert.equal(j.regex, false);
    assert.deepEqual(j.sessions.map((s: { path: string; agent: string }) => [s.path, s.agent]), [[st.piFile, "pi"], [st.seedFile, "seed-000"]]);
    const hit = j.sessions[0].hits[0];
    assert.deepEqual(Object.keys(hit), ["entryId", "kind", "timestamp", "line", "snippet", "match"]);
    assert.deepEqual({ ...hit, timestamp: typeof hit.timestamp }, { entryId: "p2", kind: "tool-call", timestamp: "string", line: 3, snippet: "read src/frobnicator.ts", match: [9, 20] });
    assert.deepEqual(j.scanned.files, 2);
    assert.ok(j.scanned.bytes > 500);
  });

  it("no hits: exit 0 with 'no matches', or empty sessions in JSON", async () => {
    const t = await ase(["search", "xyzzy-nothing", ...dirArgs(st)]);
    assert.equal(t.code, 0);
    assert.match(t.out, /^no matches \(scanned 3 file\(s\), [\d.]+ KB\)\n$/);
    const j = await ase(["search", "xyzzy-nothing", ...dirArgs(st), "--json"]);
    assert.equal(j.code, 0);
    assert.deepEqual(JSON.parse(j.out).sessions, []);
  });

  it("--regex, --case-sensitive, --project, --agent, --since/--until, --limit", async () => {
    const entryIds = async (args: string[]) => {
      const r = await ase(["search", ...args, ...dirArgs(st), "--json"]);
      assert.equal(r.code, 0, r.err);
      return (JSON.parse(r.out).sessions as Array<{ hits: Array<{ entryId: string }> }>).flatMap((s) => s.hits.map((h) => h.entryId));
    };
    assert.deepEqual(await entryIds(["frob\\w+ into (two|three)", "--regex"]), ["p5"]);
    assert.deepEqual(await entryIds(["Frobnicator", "--case-sensitive"]), ["p1", "p3", "c2"]);
    assert.deepEqual(await entryIds(["frobnicator", "--project", "/home/ana/app"]), ["u1", "a1", "t1", "r1", "s1"]);
    assert.deepEqual(await entryIds(["frobnicator", "--agent", "claude-code"]), ["c1", "c2", "c6"]);
    assert.deepEqual(await entryIds(["frobnicator", "--until", "2026-02-01"]), ["p1", "p2", "p3", "p5"]);
    assert.deepEqual(await entryIds(["frobnicator", "--since", "2026-03-01T00:00:00Z", "--kind", "summary"]), ["c6", "s1"]);
    assert.deepEqual(await entryIds(["frobnicator", "--limit", "2"]), ["p1", "p2"]);
  });

  it("session text reaches the terminal as visible marks, never raw", async () => {
    const file = writeSession([header(), user("e1", null, "evil \u001b[2J\u202e zap\nnext line")], { dir: tempDir() });
    const r = await ase(["search", "zap", "--file", file]);
    assert.equal(r.code, 0, r.err);
    assert.ok(!r.out.includes("\u001b") && !r.out.includes("\u202e"), r.out);
    assert.match(r.out, /evil ⟨U\+001B⟩\[2J⟨U\+202E⟩ zap next line/);
  });

  it("errors: exit 2, one line on stderr, nothing on stdout", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["search"], /missing PATTERN/],
      [["search", "a", "b"], /expected one pattern, got 2/],
      [["search", "x", "--bogus"], /Unknown option '--bogus'/],
      [["search", "frob(", "--regex", "--file", st.piFile], /invalid regular expression \/frob\(\/: .*Unterminated group/],
      [["search", "x", "--dir", "/no/such/dir"], /--dir \/no\/such\/dir: no such folder$/],
      [["search", "x", "--dir", "claude-code=/no/such/dir"], /--dir claude-code=\/no\/such\/dir: no such folder$/],
      [["search", "x", "--file", "/no/such/file.jsonl"], /--file \/no\/such\/file\.jsonl: no such file$/],
      [["search", "x", "--kind", "bogus"], /unknown kind "bogus"/],
      [["search", "x", "--agent", "nobody"], /unknown agent "nobody"/],
      [["search", "x", "--since", "yesterday"], /--since expects a day/],
      [["search", "x", "--since", "2026-02-01", "--until", "2026-01-01"], /--since is after --until/],
      [["search", "x", "--limit", "ten"], /--limit expects a whole number/],
      [["search", "x", "--file", st.piFile, "--dir", st.pi], /--file and --dir cannot be combined/],
    ];
    for (const [args, re] of cases) {
      const r = await ase(args);
      assert.equal(r.code, 2, `${args.join(" ")}: exit code`);
      assert.equal(r.out, "", `${args.join(" ")}: stdout`);
      assert.equal(r.err.trimEnd().split("\n").length, 1, `${args.join(" ")}: one line: ${r.err}`);
      assert.match(r.err.trimEnd(), re, args.join(" "));
    }
  });

  it("bad input of the new kinds: a long pattern, a bad escape (regexes are Unicode), a FIFO, a bad --regex-timeout: exit 2, one short line", async function () {
    if (process.platform === "win32") this.skip();
    const fifo = join(tempDir(), "pipe.jsonl");
    execFileSync("mkfifo", [fifo]);
    const long = "x".repeat(40 * 1024);
    const cases: Array<[string[], RegExp]> = [
      [["search", long, "--file", st.piFile], /^ase search: the pattern "x{60}… \(40,960 characters\)" is too long \(at most 10,000 characters\)$/],
      [["search", `${long}(`, "--regex", "--file", st.piFile], /^ase search: the pattern \/x{60}… \(40,961 characters\)\/ is too long/],
      [["search", "a\\-b", "--regex", "--file", st.piFile], /^ase search: invalid regular expression \/a\\-b\/: Invalid escape$/],
      [["search", "x", "--file", fifo], /--file .*pipe\.jsonl is a FIFO, not a regular file$/],
      [["search", "x", "--file", st.pi], / is a directory, not a regular file$/],
      [["search", "x", "--regex", "--regex-timeout", "soon", "--file", st.piFile], /--regex-timeout expects seconds/],
    ];
    for (const [args, re] of cases) {
      const r = await ase(args);
      const shown = args.join(" ").slice(0, 80);
      assert.equal(r.code, 2, `${shown}: exit code (${r.err.slice(0, 200)})`);
      assert.equal(r.out, "", `${shown}: stdout`);
      assert.equal(r.err.trimEnd().split("\n").length, 1, `${shown}: one line`);
      assert.ok(r.err.length < 300, `${shown}: ${r.err.length} characters on stderr`);
      assert.match(r.err.trimEnd(), re, shown);
    }
  });

  it("a regex that backtracks for ever: exit 2 and one line naming the deadline and the hits found before it", function () {
    this.timeout(60_000);
    const file = writeSession([header(), user("e1", null, "quick aaa"), user("e2", null, `${"a".repeat(50_000)}!`)]);
    const t0 = Date.now();
    const r = spawnSync(process.execPath, [CLI, "search", "(a+)+$", "--regex", "--regex-timeout", "0.5", "--file", file], { encoding: "utf8", env: { ...process.env, HOME: tempDir() }, timeout: 50_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.ok(Date.now() - t0 < 30_000);
    assert.equal(r.stdout, "", "a failed command prints nothing on stdout");
    assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /^ase search: the regular expression \/\(a\+\)\+\$\/ ran for more than 0\.5 s on one entry \(line 3 of .*\) and was stopped: it backtracks .*--regex-timeout SECONDS; 1 hit\(s\) were found before it\)\n$/);
  });

  it("hits in a sub-agent's transcript name it", async () => {
    const root = tempDir();
    const proj = join(root, "projects", "-home-dev-demo");
    mkdirSync(join(proj, cc.SESSION, "subagents"), { recursive: true });
    writeFileSync(join(proj, `${cc.SESSION}.jsonl`), cc.jsonl([cc.user("n1", null, "Start a helper")]));
    writeFileSync(join(proj, cc.SESSION, "subagents", "agent-a7.jsonl"), cc.jsonl([cc.sidechain(cc.user("s1", null, "look for the okapi", { agentId: "a7" }))]));
    writeFileSync(join(proj, cc.SESSION, "subagents", "agent-a7.meta.json"), JSON.stringify({ description: "Find okapis" }));
    const r = await ase(["search", "okapi", "--dir", `claude-code=${root}`]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, / s1 {2}line 1 of sub-agent a7 \(Find okapis\) {2}look for the okapi\n/);
    const j = await ase(["search", "okapi", "--dir", `claude-code=${root}`, "--json"]);
    const hit = JSON.parse(j.out).sessions[0].hits[0];
    assert.deepEqual(hit.subagent, { agentId: "a7", description: "Find okapis", path: join(proj, cc.SESSION, "subagents", "agent-a7.jsonl") });
  });

  it("the built CLI: exit codes and streams as a script sees them", function () {
    this.timeout(60_000);
    const run = (args: string[]) => spawnSync(process.execPath, [CLI, "search", ...args], { encoding: "utf8", env: { ...process.env, HOME: tempDir() } });
    const bad = run(["x(", "--regex", "--file", st.piFile]);
    assert.equal(bad.status, 2);
    assert.equal(bad.stdout, "");
    assert.match(bad.stderr, /^ase search: invalid regular expression/);
    const ok = run(["frobnicator", "--file", st.piFile, "--json"]);
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).sessions[0].hits.length, 4);
  });
});
