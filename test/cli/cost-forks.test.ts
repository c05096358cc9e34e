import { strict as assert } from "node:assert";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { formatOf, openSession } from "../../src/core/formats/registry";
import { CostLedger } from "../../src/core/usage/cost-ledger";
import { costBreakdown } from "../../src/core/usage/cost-words";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: { XDG_CACHE_HOME: tempDir() }, cwd: "/" });
  return { code, out: out.join(""), err: err.join("") };
}

async function json(args: string[]) {
  const r = await run([...args, "--json"]);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;

function paid(id: string, parent: string, usd: number, extra: Record<string, unknown> = {}) {
  return { ...assistant(id, parent, "ok", { usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: usd } } }), ...extra };
}

/** Claude Code lines of one session: a prompt, two responses (the first over two lines), a second prompt. */
function claudeLines(sid: string): Array<Record<string, unknown>> {
  let n = 0;
  let parent: string | null = null;
  const line = (type: string, message: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    n++;
    const uuid = `${sid}-u${n}`;
    const l = { parentUuid: parent, isSidechain: false, cwd: "/srv/app", sessionId: sid, version: "2.1.90", type, message, uuid, timestamp: `2026-03-01T10:00:0${n}.000Z`, ...extra };
    parent = uuid;
    return l;
  };
  // Sonnet: 1M input is $3; 100k output $1.50.
  const reply = (id: string, text: string, usage: Record<string, number>) => line("assistant", { id, role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text }], usage }, { requestId: `req_${id}` });
  return [
    line("user", { role: "user", content: "Why does the build fail?" }),
    reply("msg_1", "Let me look.", { input_tokens: 1_000_000, output_tokens: 100_000 }),
    reply("msg_1", "Found it.", { input_tokens: 1_000_000, output_tokens: 100_000 }),
    line("user", { role: "user", content: "Fix it." }),
    reply("msg_2", "Fixed.", { input_tokens: 1_000_000, output_tokens: 0 }),
  ];
}

const jsonl = (lines: Array<Record<string, unknown>>) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

describe("cost: every API call counted once across forks and copies", () => {
  it("pi: a session and its fork (ase fork): the total is the session's own cost plus what the fork added; the fork says what it inherited", async () => {
    const root = tempDir();
    const dir = join(root, projectDirName("/home/ana/proj"));
    mkdirSync(dir);
    const src = writeSession([header(), user("70000001", null, "hi"), paid("70000002", "70000001", 0.1), user("70000003", "70000002", "more"), paid("70000004", "70000003", 0.2)], { dir, name: "2026-01-01T00-00-00-000Z_src.jsonl" });
    const before = await json(["cost", "--total", "--dir", root, "--no-cache"]);
    assert.ok(near(before.total.usd, 0.3), String(before.total.usd));

    const fork = await run(["fork", src, "--at", "70000004"]);
    assert.equal(fork.code, 0, fork.err);
    const forkPath = readdirSync(dir).map((f) => join(dir, f)).find((f) => f !== src) as string;
    assert.ok(forkPath, "the fork's file");
    // The fork goes on: one more paid step, written after the fork's header.
    appendFileSync(forkPath, `${JSON.stringify({ ...paid("70000006", "70000004", 0.05), timestamp: "2099-01-01T00:00:00.000Z" })}\n`);

    const total = await json(["cost", "--total", "--dir", root, "--no-cache"]);
    assert.ok(near(total.total.usd, 0.35), `forking must not add the copied calls again: ${total.total.usd}`);
    assert.equal(total.total.steps, 3);
    assert.equal(total.duplicates.steps, 2);
    assert.ok(near(total.duplicates.usd, 0.3));
    const lineOf = (p: string) => total.sessions.find((s: { path: string }) => s.path === p);
    assert.ok(near(lineOf(src).usd, 0.3), "the source owns its calls");
    assert.ok(near(lineOf(forkPath).usd, 0.05), "the fork keeps what it added");
    assert.equal(lineOf(forkPath).countedElsewhere.steps, 2);

    // The fork's own view: what its path cost, of which the copied part is inherited.
    const own = await json(["cost", forkPath]);
    assert.ok(near(own.total.usd, 0.35));
    assert.ok(near(own.inherited.usd, 0.3));
    assert.equal(own.inherited.steps, 2);
    assert.deepEqual(own.inherited.from, [src]);
    const text = await run(["cost", forkPath]);
    assert.match(text.out, /^of which \$0\.30 \(2 steps\) inherited from .*_src\.jsonl: made once, counted in that session's total$/m);
    // The explorer's header follows the file with the ledger: the same inherited part.
    const loaded = await openSession(forkPath);
    const figures = new CostLedger(loaded, formatOf(loaded)).figures();
    assert.ok(figures.inherited && near(figures.inherited.usd, 0.3) && figures.inherited.steps === 2, JSON.stringify(figures.inherited));
    assert.ok(costBreakdown(figures).some((l) => l.startsWith("of which $0.30 (2 steps) inherited from ")));
    // The source has nothing inherited.
    assert.equal((await json(["cost", src])).inherited.steps, 0);
  });

  it("Claude Code: a session, our fork and a hand-made /branch copy: the total equals the session's own cost", async () => {
    const root = tempDir();
    const proj = join(root, "projects", "-srv-app");
    mkdirSync(proj, { recursive: true });
    const sid = "aaaaaaaa-0000-4000-8000-000000000001";
    const src = join(proj, `${sid}.jsonl`);
    const lines = claudeLines(sid);
    writeFileSync(src, jsonl(lines));
    const own = await json(["cost", src]);
    // msg_1 once ($4.50, its last line's usage), msg_2 ($3).
    assert.ok(near(own.total.usd, 7.5), String(own.total.usd));

    // /branch: new sessionId, the same uuids, message ids and request ids, forkedFrom on every line.
    const copyId = "bbbbbbbb-0000-4000-8000-000000000002";
    const copy = lines.map((l) => ({ ...l, sessionId: copyId, forkedFrom: { sessionId: sid, messageUuid: l.uuid } }));
    writeFileSync(join(proj, `${copyId}.jsonl`), jsonl([...copy, { type: "custom-title", customTitle: "Build (Branch)", sessionId: copyId }]));
    const fork = await run(["fork", src, "--at", `${sid}-u3`]);
    assert.equal(fork.code, 0, fork.err);
    assert.equal(readdirSync(proj).length, 3);

    const total = await json(["cost", "--total", "--dir", `claude-code=${root}`, "--no-cache"]);
    assert.ok(near(total.total.usd, 7.5), `copies must not add the calls again: ${total.total.usd}`);
    assert.equal(total.total.steps, 2);
    assert.ok(near(total.sessions.find((s: { path: string }) => s.path === src).usd, 7.5), "the source owns every call");
    assert.equal(total.duplicates.steps, 3, "msg_1 and msg_2 in the /branch copy, msg_1 in our fork");

    const branch = await json(["cost", join(proj, `${copyId}.jsonl`)]);
    assert.ok(near(branch.total.usd, 7.5));
    assert.ok(near(branch.inherited.usd, 7.5));
    assert.deepEqual(branch.inherited.from, [sid]);
    const ours = readdirSync(proj).find((f) => f !== `${sid}.jsonl` && f !== `${copyId}.jsonl`) as string;
    const forked = await json(["cost", join(proj, ours)]);
    assert.ok(near(forked.inherited.usd, 4.5), `our fork at the first response inherits it: ${forked.inherited.usd}`);
    assert.ok(readFileSync(src, "utf8") === jsonl(lines), "the source is only read");
  });

  it("unrelated sessions are never merged: same entry ids at other times, or other request ids", async () => {
    const root = tempDir();
    const dir = join(root, projectDirName("/home/ana/proj"));
    mkdirSync(dir);
    // Same ids and costs in two sessions, each step written at its own time: two calls each.
    writeSession([header(), user("80000001", null, "hi"), paid("80000002", "80000001", 0.1)], { dir, name: "a.jsonl" });
    writeSession([header(), user("80000001", null, "hi"), paid("80000002", "80000001", 0.1)], { dir, name: "b.jsonl" });
    const t = await json(["cost", "--total", "--dir", root, "--no-cache"]);
    assert.ok(near(t.total.usd, 0.2), String(t.total.usd));
    assert.equal(t.duplicates.steps, 0);
  });
});

describe("cost reconciliation: the agent's recorded cost beside our price for the same tokens", () => {
  it("a pi session whose recorded costs are at list price: zero difference; a step recorded at another price: the difference shown", async () => {
    // Sonnet 4.5: 100 input ($3/M) and 10 output ($15/M) = $0.00045.
    const exact = 100 * 3e-6 + 10 * 15e-6;
    const file = writeSession([header(), user("90000001", null, "hi"), paid("90000002", "90000001", exact), user("90000003", "90000002", "more"), paid("90000004", "90000003", exact)]);
    const j = await json(["cost", file, "--reconcile"]);
    const row = j.reconciliation.rows[0];
    assert.equal(row.model, "claude-sonnet-4-5");
    assert.equal(row.recordedSteps, 2);
    assert.ok(Math.abs(row.difference) < 1e-12, String(row.difference));
    const text = await run(["cost", file, "--reconcile"]);
    assert.match(text.out, /^claude-sonnet-4-5 \[table: claude-sonnet-4-5\] +2 +.* \$0\.0009 \(2\) +\$0\.0009 +0 +- +-$/m);
    assert.match(text.out, /^where the agent recorded a cost, our price for the same tokens is the same$/m);

    const off = writeSession([header(), user("90000011", null, "hi"), paid("90000012", "90000011", exact + 0.001)]);
    const o = await json(["cost", off, "--reconcile"]);
    assert.ok(Math.abs(o.reconciliation.rows[0].difference + 0.001) < 1e-12, String(o.reconciliation.rows[0].difference));
    assert.match((await run(["cost", off, "--reconcile"])).out, /^claude-sonnet-4-5 .* -\$0\.001000 /m);
  });

  it("a model without a price: nothing to compare, said so; steps priced by us only are their own column", async () => {
    const file = writeSession([header(), user("90000021", null, "hi"), { ...paid("90000022", "90000021", 0.5), message: { ...(paid("90000022", "90000021", 0.5).message as object), model: "local-llama" } }, user("90000023", "90000022", "x"), assistant("90000024", "90000023", "y", { usage: { input: 1_000_000, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 1_000_000 } })]);
    const j = await json(["cost", file, "--reconcile"]);
    const byModel = Object.fromEntries(j.reconciliation.rows.map((r: { model: string }) => [r.model, r]));
    assert.equal(byModel["local-llama"].difference, null);
    assert.equal(byModel["local-llama"].priceKey, null);
    assert.equal(byModel["claude-sonnet-4-5"].pricedOnlySteps, 1);
    assert.ok(near(byModel["claude-sonnet-4-5"].pricedOnlyUsd, 3));
    assert.match((await run(["cost", file, "--reconcile"])).out, /^local-llama \[no price\] /m);
  });

  it("ase cost --total --reconcile: the rows of every counted step, copies not twice", async () => {
    const root = tempDir();
    const dir = join(root, projectDirName("/home/ana/proj"));
    mkdirSync(dir);
    const exact = 100 * 3e-6 + 10 * 15e-6;
    const src = writeSession([header(), user("90000031", null, "hi"), paid("90000032", "90000031", exact)], { dir, name: "a.jsonl" });
    assert.equal((await run(["fork", src, "--at", "90000032"])).code, 0);
    const j = await json(["cost", "--total", "--dir", root, "--no-cache", "--reconcile"]);
    assert.equal(j.reconciliation.total.steps, 1);
    assert.ok(Math.abs(j.reconciliation.total.difference) < 1e-12);
  });

  it("the repository's real pi sessions: zero difference for every model the agent recorded a cost for", async function () {
    needFixtures(this);
    for (const name of REAL_SESSIONS) {
      const j = await json(["cost", fixture(`${name}.jsonl`), "--reconcile"]);
      const compared = j.reconciliation.rows.filter((r: { difference: number | null }) => r.difference !== null);
      assert.ok(compared.length > 0, `${name}: some model compared`);
      for (const r of compared) assert.ok(Math.abs(r.difference) <= Math.max(1e-9, r.recordedUsd * 1e-9), `${name} ${r.model}: recorded ${r.recordedUsd}, ours ${r.pricedRecordedUsd}`);
      assert.ok(j.reconciliation.total.recordedSteps > 400, `${name}: ${j.reconciliation.total.recordedSteps} recorded steps`);
    }
  });
});
