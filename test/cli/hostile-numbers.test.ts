import { strict as assert } from "node:assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { claudeCodeFormat } from "../../src/core/formats/claude-code/format";
import { clawdcodeFormat } from "../../src/core/formats/clawdcode/format";
import { MemorySession } from "../../src/core/session/memory-session";
import { piFormat } from "../../src/core/formats/pi/format";
import { projectDirName } from "../../src/core/formats/pi/sessions-dir";
import { seed000Format } from "../../src/core/formats/seed-000/format";
import { sessionCost } from "../../src/core/usage/session-cost";
import * as cc from "../formats/claude-code/lines";
import * as claw from "../formats/clawdcode/lines";
import * as seed from "../formats/seed-000/helpers";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

async function run(args: string[], cwd = "/") {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: { XDG_CACHE_HOME: tempDir() }, cwd });
  return { code, out: out.join(""), err: err.join("") };
}

type Raw = Record<string, unknown>;

/** A pi assistant step whose usage holds the given figures (the rest ordinary). */
function step(id: string, parent: string, usage: Raw): Raw {
  return assistant(id, parent, "ok", { model: "claude-sonnet-4-5", usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, ...usage } });
}

/** One good step ($0.25 recorded), then steps whose figures are 1e308, -5 and the string "NaN". */
function hostileLines(cwd = "/home/ana/web"): Raw[] {
  return [
    header({ cwd }),
    user("70000001", null, "hi"),
    step("70000002", "70000001", { cost: { total: 0.25 } }),
    user("70000003", "70000002", "more"),
    step("70000004", "70000003", { input: 1e308, totalTokens: 1e308 }),
    user("70000005", "70000004", "more"),
    step("70000006", "70000005", { cost: { total: -5 } }),
    user("70000007", "70000006", "more"),
    step("70000008", "70000007", { output: "NaN", cost: { total: 1e308 } }),
  ];
}

/** What no human output may hold: an overflowed sum, a negative price, a 308-digit figure (except where it names what was left out). */
function assertSane(text: string): void {
  const figures = text.split("\n").filter((l) => !/left out: the recorded usage/.test(l)).join("\n");
  assert.doesNotMatch(figures, /Infinity|NaN|\$-|e\+30/, text);
}

describe("numbers from session files: finite, from 0, else left out and said", () => {
  it("ase cost: the good step counts, the three bad ones are left out and named by line", async () => {
    const r = await run(["cost", writeSession(hostileLines()), "--by", "model"]);
    assert.equal(r.code, 0, r.err);
    assertSane(r.out);
    assert.match(r.out, /^total \$0\.2500 {2}1 step\(s\): 1 recorded \$0\.2500, 0 priced \$0\.0000, 0 unpriced$/m);
    assert.match(r.out, /left out: the recorded usage of 3 entries, a figure not a number from 0 to 2\^53 \(line 5: usage\.input is 1e\+308; usage\.totalTokens is 1e\+308; line 7: usage\.cost\.total is -5; line 9: usage\.output is the string "NaN"; usage\.cost\.total is 1e\+308\)/);
  });

  it("ase cost --json: every sum a finite number (never null), the left-out entries listed", async () => {
    const r = await run(["cost", writeSession(hostileLines()), "--json"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    for (const k of ["usd", "recordedUsd", "pricedUsd"]) assert.equal(typeof j.total[k], "number", k);
    assert.equal(j.total.usd, 0.25);
    assert.deepEqual(j.total.tokens, { input: 100, output: 10, cacheRead: 0, cacheWrite: 0 });
    assert.deepEqual(
      j.unreadableUsage.map((u: { entryId: string; line: number }) => [u.entryId, u.line]),
      [["70000004", 5], ["70000006", 7], ["70000008", 9]],
    );
    assert.ok(j.steps.every((s: { usd: unknown }) => typeof s.usd === "number" && s.usd >= 0));
  });

  it("ase cost --total: sums what can be believed and says how many entries were left out", async () => {
    const root = tempDir();
    const web = join(root, projectDirName("/home/ana/web"));
    mkdirSync(web);
    writeSession(hostileLines(), { dir: web, name: "w.jsonl" });
    const r = await run(["cost", "--total", "--dir", root]);
    assert.equal(r.code, 0, r.err);
    assertSane(r.out);
    assert.match(r.out, /^total \$0\.2500 /m);
    assert.match(r.out, /^left out: the recorded usage of 3 entries/m);
    const j = JSON.parse((await run(["cost", "--total", "--dir", root, "--json"])).out);
    assert.equal(j.total.usd, 0.25);
    assert.equal(j.unreadableUsage, 3);
  });

  it("ase tokens: a context never sized from 1e308; the left-out usage noted on stderr", async () => {
    // The leaf's own step is the 1e308 one: pi's rule would take its usage as the context size.
    const lines = hostileLines().slice(0, 5);
    const r = await run(["tokens", writeSession(lines)]);
    assert.equal(r.code, 0, r.err);
    assertSane(r.out);
    assert.match(r.out, /recorded 110 \+ estimated/);
    assert.match(r.err, /^note: left out: the recorded usage of 1 entry, a figure not a number from 0 to 2\^53 \(line 5: usage\.input is 1e\+308/m);
    const json = JSON.parse((await run(["tokens", writeSession(lines), "--json"])).out);
    assert.ok(Number.isFinite(json.contextTokens) && json.contextTokens < 1000, String(json.contextTokens));
  });

  it("every format reads its usage through the same check (Claude Code, clawdcode, seed-000, pi)", () => {
    const bad = { input_tokens: -5, output_tokens: 1e308 };
    const ccLine = cc.fragment("c2", "c1", "msg_1", cc.text("ok"));
    (ccLine.message as Raw).usage = { ...bad, cache_read_input_tokens: "NaN" };
    const sessions = [
      new MemorySession(claudeCodeFormat.id, claudeCodeFormat.index, [cc.user("c1", null, "hi"), ccLine], "/s/cc.jsonl"),
      new MemorySession(clawdcodeFormat.id, clawdcodeFormat.index, [claw.user("w1", null, "hi"), claw.assistant("w2", "w1", "ok", bad as never)], "/s/claw.jsonl"),
      seed.memory([seed.user("s1", null, "hi"), seed.assistant("s2", "s1", "ok", { model: "claude-sonnet-4-5", usage: bad as never })]),
      new MemorySession(piFormat.id, piFormat.index, hostileLines().slice(1, 5), "/s/pi.jsonl", 1, 3),
    ];
    const formats = [claudeCodeFormat, clawdcodeFormat, seed000Format, piFormat];
    sessions.forEach((s, k) => {
      const c = sessionCost(s, formats[k]);
      assert.equal(c.unreadableUsage.length, 1, formats[k].id);
      assert.ok(Number.isFinite(c.total.usd) && c.total.usd >= 0, `${formats[k].id}: ${c.total.usd}`);
      assert.ok(Object.values(c.total.tokens).every((n) => n < 1e15), `${formats[k].id}: ${JSON.stringify(c.total.tokens)}`);
      assert.match(c.unreadableUsage[0].reason, /is -5|is 1e\+308/, formats[k].id);
    });
  });

  it('ase cost --prices: a "__proto__" key prices the model of that name (it was dropped without a word)', async () => {
    const prices = join(tempDir(), "prices.json");
    writeFileSync(prices, '{"__proto__": {"input": 1000000, "output": 0, "cacheWrite": 0, "cacheRead": 0}}');
    const file = writeSession([header(), user("71000001", null, "q"), assistant("71000002", "71000001", "a", { model: "__proto__", usage: { input: 2, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 2 } })]);
    const r = await run(["cost", file, "--prices", prices, "--json"]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, "");
    const j = JSON.parse(r.out);
    assert.equal(j.total.pricedSteps, 1);
    assert.equal(j.total.usd, 2);
    assert.equal(j.steps[0].priceKey, "__proto__");
  });
});
