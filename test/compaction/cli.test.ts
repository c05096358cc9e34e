import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { main } from "../../src/cli/main";
import { fixture, needFixtures } from "../helpers/fixtures";
import { FakeAnthropic } from "./fake-anthropic";
import { expectOneCompactionLine, expectUnchanged, turnsSession } from "./helpers";

async function ase(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env, cwd: process.cwd() });
  return { code, out, err };
}

describe("ase compact / ase branch", () => {
  it("--dry-run prints the plan and writes nothing", async () => {
    const file = turnsSession();
    const before = readFileSync(file);
    const r = await ase(["compact", file, "--dry-run", "--keep-recent", "250", "--strategy", "smart"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /dry run .*nothing written/);
    assert.match(r.out, /first kept entry u0000003 \(user\)/);
    assert.match(r.out, /kept verbatim: \d+ item/);
    assert.match(r.out, /modified files: \/src\/b.ts, \/src\/c.ts/);
    expectUnchanged(file, before);
  });

  it("truncate needs no key: prints entry id, tokens before -> after, files", async () => {
    const file = turnsSession();
    const before = readFileSync(file);
    const r = await ase(["compact", file, "--strategy", "truncate", "--keep-recent", "250"]);
    assert.equal(r.code, 0, r.err);
    const e = await expectOneCompactionLine(file, before, "TRUNCATED");
    assert.match(r.out, new RegExp(`entry: ${e.id} \\(compaction, parent a0000007\\)`));
    assert.match(r.out, /tokens: \d+ -> ~\d+/);
    assert.match(r.out, /read files: \/src\/a.ts/);
  });

  it("summarize with ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL", async () => {
    const fake = await FakeAnthropic.start([{ kind: "message", text: "CLI SUMMARY" }], { apiKey: "cli-key" });
    try {
      const file = turnsSession();
      const before = readFileSync(file);
      const r = await ase(["compact", file, "--keep-recent", "250", "--model", "claude-haiku-4-5", "--instructions", "focus on tests"], { ANTHROPIC_API_KEY: "cli-key", ANTHROPIC_BASE_URL: fake.url });
      assert.equal(r.code, 0, r.err);
      await expectOneCompactionLine(file, before, "CLI SUMMARY");
      assert.equal(fake.requests[0].body.model, "claude-haiku-4-5");
      assert.ok(fake.requests[0].prompt.includes("focus on tests"));
    } finally {
      await fake.close();
    }
  });

  it("nothing written -> exit 2 and one line: no key, 401, old version, nothing to compact, bad strategy", async function () {
    const file = turnsSession();
    const before = readFileSync(file);
    let r = await ase(["compact", file]);
    assert.equal(r.code, 2);
    assert.match(r.err, /^ase compact: nothing written: ANTHROPIC_API_KEY is not set/);
    assert.equal(r.err.trim().split("\n").length, 1);
    assert.equal(r.out, "");

    const fake = await FakeAnthropic.start([], { apiKey: "right" });
    try {
      r = await ase(["compact", file, "--keep-recent", "250"], { ANTHROPIC_API_KEY: "wrong", ANTHROPIC_BASE_URL: fake.url });
      assert.equal(r.code, 2);
      assert.match(r.err, /nothing written: the API key was rejected \(401\)/);
      assert.equal(r.out, "");
    } finally {
      await fake.close();
    }

    r = await ase(["compact", file, "--strategy", "fancy"]);
    assert.equal(r.code, 2);
    r = await ase(["compact", file, "--strategy", "truncate", "--keep-recent", "100000"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /nothing to compact/);
    expectUnchanged(file, before);

    needFixtures(this);
    const old = fixture("large-session.jsonl");
    const oldBefore = readFileSync(old);
    r = await ase(["compact", old, "--strategy", "truncate"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /version 1 session.*ase fork/);
    r = await ase(["branch", old, "--to", "00000005"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /ase fork/);
    expectUnchanged(old, oldBefore);
  });

  it("branch --to moves the leaf with an empty branch_summary; unknown id is refused", async () => {
    const file = turnsSession();
    const before = readFileSync(file);
    let r = await ase(["branch", file, "--to", "nope"]);
    assert.equal(r.code, 2);
    expectUnchanged(file, before);
    r = await ase(["branch", file, "--to", "a0000003"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /branch_summary, parent a0000003, from a0000007/);
    const line = JSON.parse(readFileSync(file).subarray(before.length).toString("utf8"));
    assert.equal(line.type, "branch_summary");
    r = await ase(["branch", file, "--to", "a0000003", "--summarize"]);
    assert.equal(r.code, 2);
    assert.match(r.err, /ANTHROPIC_API_KEY/);
  });
});
