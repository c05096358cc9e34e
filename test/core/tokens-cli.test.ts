import { strict as assert } from "node:assert";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { fixture, needFixtures } from "../helpers/fixtures";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env, cwd: "/" });
  return { code, out: out.join(""), err: err.join("") };
}

describe("ase tokens", () => {
  it("--json has the stable shape; --exact fills exact and calibrated and writes the cache under XDG_CACHE_HOME", async () => {
    const cacheHome = tempDir();
    const file = writeSession([header(), user("30000001", null, "hello"), assistant("30000002", "30000001", "world"), user("30000003", "30000002", "again")]);
    const r = await run(["tokens", file, "--json", "--exact"], { XDG_CACHE_HOME: cacheHome });
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as Record<string, unknown> & { entries: Array<Record<string, unknown>>; branches: Array<Record<string, unknown>>; budget: { total: number; parts: Array<Record<string, unknown>> } };
    for (const k of ["leafId", "contextTokens", "contextWindow", "threshold", "wouldCompact", "entries", "branches", "budget"]) assert.ok(k in j, k);
    assert.equal(j.leafId, "30000003");
    assert.deepEqual(j.entries.map((e) => e.id), ["30000001", "30000002", "30000003"]);
    assert.deepEqual(j.entries[1].recorded, { input: 100, output: 20, cacheRead: 0, cacheWrite: 0 });
    assert.equal(j.entries[0].recorded, undefined);
    for (const e of j.entries) for (const k of ["kind", "estimate", "exact", "calibrated"]) assert.ok(k in e, k);
    assert.deepEqual(Object.keys(j.branches[0]).slice(0, 2), ["leafId", "fromId"]);
    assert.ok("tokens" in j.branches[0] && "byKind" in j.branches[0]);
    // The JSON keeps the per-kind names it was published with (it is only ever extended).
    assert.deepEqual(Object.keys(j.branches[0].byKind as object), ["user", "assistantText", "thinking", "toolCalls", "toolResults", "images", "summaries", "custom", "bash"]);
    assert.deepEqual(j.budget.parts.map((p) => p.name), ["system", "summary", "injected", "recent", "current"]);
    for (const p of j.budget.parts) assert.ok("allocated" in p && "used" in p);
    assert.equal(j.contextTokens, 120 + 2);
    const dir = join(cacheHome, "agent-session-explorer", "tokens");
    assert.ok(existsSync(dir) && readdirSync(dir).length === 1);
  });

  it("errors are one line on stderr with exit 2", async () => {
    const file = writeSession([header(), user("30000001", null, "hello")]);
    for (const args of [["tokens"], ["tokens", file, "--leaf", "nope"], ["tokens", file, "--system", "/no/such"], ["tokens", file, "--allocation", "1,2"], ["tokens", "/no/such.jsonl"], ["tokens", file, "--accuracy", "--no-cache"]]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.equal(r.out, "");
      assert.equal(r.err.trim().split("\n").length, 1, r.err);
    }
  });

  it("--accuracy prints median and p90 per method on a real session", async function () {
    needFixtures(this);
    const r = await run(["tokens", fixture("before-compaction.jsonl"), "--accuracy", "--json", "--no-cache"]);
    assert.equal(r.code, 0, r.err);
    const a = JSON.parse(r.out) as { methods: Array<{ method: string; median: number; p90: number }> };
    assert.deepEqual(a.methods.map((m) => m.method).filter((m) => ["estimate", "tokenizer", "calibrated"].includes(m)), ["estimate", "tokenizer", "calibrated"]);
    for (const m of a.methods) assert.ok(m.median >= 0 && m.p90 >= m.median);
  });
});
