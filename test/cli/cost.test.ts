import { strict as assert } from "node:assert";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { main } from "../../src/cli/main";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import { assistant as seedAssistant, user as seedUser } from "../formats/seed-000/helpers";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

async function run(args: string[], cwd = "/") {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: { XDG_CACHE_HOME: tempDir() }, cwd });
  return { code, out: out.join(""), err: err.join("") };
}

function paid(id: string, parent: string, usd: number, model = "claude-sonnet-4-5") {
  return assistant(id, parent, "ok", { model, usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: usd } } });
}

/** pi: u1 - a1 ($0.10) - u2 - a2 ($0.20); a1 - u3 - a3 ($0.05). */
function piFile(): string {
  return writeSession([header(), user("40000001", null, "hi"), paid("40000002", "40000001", 0.1), user("40000003", "40000002", "more"), paid("40000004", "40000003", 0.2, "claude-opus-4-5"), user("40000005", "40000002", "other"), paid("40000006", "40000005", 0.05)]);
}

/** seed-000: one priced step (1M input on Sonnet: $3) and one of a model without a price. */
function seedFile(): string {
  return writeSession([
    seedUser("u1", null, "q"),
    seedAssistant("a1", "u1", "a", { model: "claude-sonnet-4-5", usage: { input_tokens: 1_000_000, output_tokens: 0 } }),
    seedUser("u2", "a1", "q2"),
    seedAssistant("a2", "u2", "b", { model: "local-llama", usage: { input_tokens: 2000, output_tokens: 100 } }),
  ]);
}

describe("ase cost", () => {
  it("prints the total with its split, and per branch the default leaf starred", async () => {
    const r = await run(["cost", piFile(), "--by", "branch"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\(pi session\)/);
    assert.match(r.out, /^total \$0\.3500 {2}3 step\(s\): 3 recorded \$0\.3500, 0 priced \$0\.0000, 0 unpriced$/m);
    assert.match(r.out, /^ {2}40000004 +\$0\.3000 /m);
    assert.match(r.out, /^\* 40000006 +\$0\.1500 /m);
  });

  it("--by model and --by day group the same steps", async () => {
    const file = piFile();
    const m = await run(["cost", file, "--by", "model"]);
    assert.equal(m.code, 0, m.err);
    assert.match(m.out, /^claude-opus-4-5 +\$0\.2000 +1 step/m);
    assert.match(m.out, /^claude-sonnet-4-5 +\$0\.1500 +2 step/m);
    const d = await run(["cost", file, "--by", "day"]);
    assert.match(d.out, /^\d{4}-\d\d-\d\d +\$0\.3500 /m);
  });

  it("says what is left out of the total when a model has no price", async () => {
    const r = await run(["cost", seedFile()]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\(Seed 000 session\)/);
    assert.match(r.out, /^total \$3\.0000 {2}2 step\(s\): 0 recorded \$0\.0000, 1 priced \$3\.0000, 1 unpriced$/m);
    assert.match(r.out, /not in the total: 2\.1k tokens of local-llama/);
  });

  it("--prices FILE prices more models; its bad entries are warnings on stderr", async () => {
    const file = seedFile();
    const prices = join(tempDir(), "prices.json");
    writeFileSync(prices, JSON.stringify({ "local-": { input: 1, output: 10, cacheWrite: 0, cacheRead: 0 }, broken: { input: 1 } }));
    const r = await run(["cost", file, "--prices", prices, "--json"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /^warning: --prices .*prices\.json\["broken"\]: output missing/m);
    const j = JSON.parse(r.out);
    assert.equal(j.total.unpricedSteps, 0);
    assert.ok(Math.abs(j.total.usd - (3 + (2000 + 100 * 10) / 1e6)) < 1e-12);
  });

  it("--json has the stable shape: every grouping and the steps", async () => {
    const r = await run(["cost", piFile(), "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j), ["file", "format", "currency", "total", "byModel", "byDay", "unpricedModels", "dedupe", "byBranch", "steps", "unreadableUsage", "inherited"]);
    assert.equal(j.format, "pi");
    assert.equal(j.currency, "USD");
    for (const k of ["usd", "recordedUsd", "pricedUsd", "steps", "recordedSteps", "pricedSteps", "unpricedSteps", "tokens", "unpricedTokens"]) assert.ok(k in j.total, k);
    assert.deepEqual(j.byBranch.map((b: { leafId: string; default: boolean }) => [b.leafId, b.default]), [["40000004", false], ["40000006", true]]);
    assert.deepEqual(j.steps[0], { entryId: "40000002", model: "claude-sonnet-4-5", day: j.steps[0].day, usd: 0.1, source: "recorded" });
  });

  it("errors are one line on stderr with exit 2, nothing on stdout and nothing written", async () => {
    const file = piFile();
    const dir = dirname(file);
    const before = readFileSync(file);
    const notJson = join(tempDir(), "p.json");
    writeFileSync(notJson, "{ nope");
    for (const args of [["cost"], ["cost", file, file], ["cost", file, "--by", "week"], ["cost", file, "--by"], ["cost", file, "--nope"], ["cost", "/no/such.jsonl"], ["cost", file, "--prices", "/no/such.json"], ["cost", file, "--prices", notJson]]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.equal(r.out, "");
      assert.equal(r.err.trim().split("\n").length, 1, r.err);
      assert.match(r.err, /^ase cost: /);
    }
    assert.deepEqual(readFileSync(file), before);
    assert.deepEqual(readdirSync(dir), ["session.jsonl"]);
  });

  it("is listed in --help", async () => {
    const r = await run(["--help"]);
    assert.match(r.out, /ase cost <file> \[--by branch\|model\|day\]/);
    assert.match(r.out, /ase cost --total \[--dir \[AGENT=\]D\]\.\.\. \[--agent A\]\.\.\. \[--project P\] \[--since DATE\] \[--until DATE\]/);
  });
});

/** A pi step with a recorded cost at a given time. */
function paidAt(id: string, parent: string, usd: number, at: string, model = "claude-sonnet-4-5") {
  return { ...paid(id, parent, usd, model), timestamp: at };
}

/**
 * A pi sessions dir with two projects: /home/ana/web (one session over two days, $0.10 on
 * May 1 and $0.20 of opus on May 2) and /home/ana/api (one session, $0.05 on May 3).
 */
function sessionsDir(): string {
  const root = tempDir();
  const web = join(root, projectDirName("/home/ana/web"));
  const api = join(root, projectDirName("/home/ana/api"));
  mkdirSync(web);
  mkdirSync(api);
  writeSession([header({ cwd: "/home/ana/web" }), user("50000001", null, "hi"), paidAt("50000002", "50000001", 0.1, "2026-05-01T10:00:00.000Z"), user("50000003", "50000002", "more"), paidAt("50000004", "50000003", 0.2, "2026-05-02T10:00:00.000Z", "claude-opus-4-5")], { dir: web, name: "w.jsonl" });
  writeSession([header({ cwd: "/home/ana/api" }), user("60000001", null, "hi"), paidAt("60000002", "60000001", 0.05, "2026-05-03T10:00:00.000Z")], { dir: api, name: "a.jsonl" });
  return root;
}

describe("ase cost --total", () => {
  it("sums every listed session by model, day and project, most expensive first", async () => {
    const r = await run(["cost", "--total", "--dir", sessionsDir()]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^2 session file\(s\) with steps, all time$/m);
    assert.match(r.out, /^total \$0\.3500 {2}3 step\(s\): 3 recorded \$0\.3500, 0 priced \$0\.0000, 0 unpriced$/m);
    assert.match(r.out, /^claude-opus-4-5 +\$0\.2000 +1 step/m);
    assert.match(r.out, /^2026-05-02 +\$0\.2000 /m);
    assert.match(r.out, /^\/home\/ana\/web +\$0\.3000 /m);
    assert.match(r.out, /^ +\$0\.3000 +2 step\(s\) {2}pi {2}.*w\.jsonl$/m);
  });

  it("--since/--until keep the steps written in the range; --project keeps one project", async () => {
    const dir = sessionsDir();
    const r = await run(["cost", "--total", "--dir", dir, "--since", "2026-05-02", "--until", "2026-05-02", "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(j.range, { since: "2026-05-02T00:00:00.000Z", until: "2026-05-03T00:00:00.000Z" });
    assert.ok(Math.abs(j.total.usd - 0.2) < 1e-12, String(j.total.usd));
    assert.deepEqual(j.byDay.map((d: { day: string }) => d.day), ["2026-05-02"]);
    const p = await run(["cost", "--total", "--dir", dir, "--project", "/home/ana/api/", "--json"]);
    assert.equal(p.code, 0, p.err);
    const pj = JSON.parse(p.out);
    assert.equal(pj.project, "/home/ana/api");
    assert.deepEqual(pj.byProject.map((x: { project: string }) => x.project), ["/home/ana/api"]);
    assert.ok(Math.abs(pj.total.usd - 0.05) < 1e-12);
    const rel = await run(["cost", "--total", "--dir", dir, "--project", "web"], "/home/ana");
    assert.equal(rel.code, 0, rel.err);
    assert.match(rel.out, /^project \/home\/ana\/web: 1 session file/m);
  });

  it("--json has the stable shape", async () => {
    const r = await run(["cost", "--total", "--dir", sessionsDir(), "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(Object.keys(j), ["roots", "project", "currency", "range", "total", "byModel", "byDay", "byProject", "sessions", "unpricedModels", "undatedSteps", "filesRead", "filesBefore", "failed", "unreadableUsage", "duplicates"]);
    assert.equal(j.project, null);
    assert.equal(j.roots[0].agent, "pi");
    assert.deepEqual(Object.keys(j.sessions[0]).slice(0, 3), ["path", "agent", "project"]);
    assert.equal(j.filesRead, 2);
    assert.deepEqual(j.failed, []);
  });

  it("a Claude Code store: a sub-agent's transcript counts under its session; a response over two lines counts once", async () => {
    const root = tempDir();
    const proj = join(root, "projects", "-srv-app");
    mkdirSync(join(proj, "s1", "subagents"), { recursive: true });
    const line = (sid: string, n: number, type: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ parentUuid: n > 1 ? `u-${sid}-${n - 1}` : null, isSidechain: false, cwd: "/srv/app", sessionId: sid, version: "2.1.90", type, message, uuid: `u-${sid}-${n}`, timestamp: `2026-03-01T10:00:0${n}.000Z`, ...extra });
    // 1M input and 100k output of Sonnet: $3 + $1.50, written as two lines of one response.
    const usage = { input_tokens: 1_000_000, output_tokens: 100_000 };
    const reply = (sid: string, n: number, text: string) => line(sid, n, "assistant", { id: `msg_${sid}`, role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text }], usage });
    writeFileSync(join(proj, "s1.jsonl"), `${[line("s1", 1, "user", { role: "user", content: "Why does the build fail?" }), reply("s1", 2, "Let me look."), reply("s1", 3, "Found it.")].join("\n")}\n`);
    writeFileSync(join(proj, "s1", "subagents", "agent-abcd.jsonl"), `${[line("s1", 1, "user", { role: "user", content: "search" }, { isSidechain: true }), line("s1", 2, "assistant", { id: "msg_sub", role: "assistant", model: "claude-haiku-4-5", content: [{ type: "text", text: "done" }], usage: { input_tokens: 1_000_000, output_tokens: 0 } }, { isSidechain: true })].join("\n")}\n`);
    const r = await run(["cost", "--total", "--dir", `claude-code=${root}`, "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.deepEqual(j.sessions.map((x: { path: string; parent?: string; steps: number }) => [x.path.slice(proj.length), x.parent?.slice(proj.length) ?? null, x.steps]), [["/s1.jsonl", null, 1], ["/s1/subagents/agent-abcd.jsonl", "/s1.jsonl", 1]]);
    assert.ok(Math.abs(j.total.usd - (4.5 + 1)) < 1e-9, String(j.total.usd));
    assert.deepEqual(j.byModel.map((m: { model: string }) => m.model), ["claude-sonnet-4-5", "claude-haiku-4-5"]);
  });

  it("errors are one line on stderr with exit 2, nothing on stdout", async () => {
    const dir = sessionsDir();
    for (const args of [
      ["cost", "--total", piFile()],
      ["cost", "--total", "--dir", dir, "--by", "model"],
      ["cost", "--total", "--dir", dir, "--since", "last week"],
      ["cost", "--total", "--dir", dir, "--until", "2026-02-30"],
      ["cost", "--total", "--dir", dir, "--since", "2026-05-03", "--until", "2026-05-01"],
      ["cost", "--total", "--dir", dir, "--project", "/no/such/project"],
      ["cost", "--total", "--agent", "nobody"],
      ["cost", piFile(), "--since", "2026-05-01"],
      ["cost", "--since", "2026-05-01"],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.equal(r.out, "");
      assert.equal(r.err.trim().split("\n").length, 1, r.err);
      assert.match(r.err, /^ase cost: /);
    }
  });
});
