import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../../src/cli/main";
import { buildClawdcodeContext } from "../../../src/core/formats/clawdcode/context";
import { clawdcodeFormat } from "../../../src/core/formats/clawdcode/format";
import { FakeAnthropic } from "../../compaction/fake-anthropic";
import { assistant, jsonl, loadFile, needSeed002, type Raw, SEED_002_DIR, toolResult, toolUse, user } from "./lines";

const FAST = { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, sleep: async () => {} }, budgets: { idleMs: 5000 } };

/** Where ase runs: the session's project, the only folder a compaction reads files from. */
let here = process.cwd();

async function ase(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env, cwd: here, llm: FAST });
  return { code, out, err };
}

describe("ase compact on a clawdcode session", () => {
  let dir: string;
  let file: string;
  let fake: FakeAnthropic | undefined;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "ase-clawd-cli-"));
    file = join(dir, "s.jsonl");
    const cwd = join(dir, "proj");
    mkdirSync(cwd);
    here = cwd;
    writeFileSync(join(cwd, "ci.yml"), "jobs: {}\n");
    const recs: Raw[] = [
      user("u1", null, "Set up CI"),
      toolUse("t1", "u1", "call_1", "write", { path: "ci.yml" }),
      toolResult("r1", "t1", "call_1", "written"),
      assistant("a1", "r1", "Workflow written.", { input_tokens: 1100, output_tokens: 5 }),
      user("u2", "a1", "Run it"),
      toolUse("t2", "u2", "call_2", "bash", { command: "act" }),
      toolResult("r2", "t2", "call_2", "ok"),
      assistant("a2", "r2", "Passed.", { input_tokens: 1250, output_tokens: 7 }),
      user("u3", "a2", "Thanks"),
      assistant("a3", "u3", "Welcome.", { input_tokens: 1300, output_tokens: 3 }),
    ].map((r) => ({ ...r, cwd }));
    writeFileSync(file, jsonl(recs));
  });
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("--dry-run prints the seed's plan and writes nothing", async () => {
    const before = readFileSync(file);
    const r = await ase(["compact", file, "--dry-run"]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^dry run for .*s\.jsonl \(ClawdCode; nothing written\)\n/);
    assert.match(r.out, /leaf: a3; context: 10 message\(s\)\n/);
    assert.match(r.out, /tokens before: 1\.3k \(recorded usage \+ estimate after it\); window 200\.0k \(claude-sonnet-4-5\): the agent compacts at 80% = 160\.0k, not reached/);
    assert.match(r.out, /summarize: 8 message\(s\); keep the last 2 \(20%, rounded up\)\n/);
    assert.match(r.out, /if the summary fails: keep the last 3 \(30%\)/);
    assert.match(r.out, /ranked files: ci\.yml \(modified, 1 mention\)/);
    assert.match(r.out, /files for the summary \(up to 5, 1000 lines each, from .*proj\): ci\.yml\n/);
    assert.deepEqual(readFileSync(file), before);
  });

  it("compacts through ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL; the file reads back as summary + kept", async () => {
    fake = await FakeAnthropic.start([{ kind: "message", text: "CLI SUMMARY" }], { apiKey: "cli-key" });
    const r = await ase(["compact", file, "--instructions", "focus on CI"], { ANTHROPIC_API_KEY: "cli-key", ANTHROPIC_BASE_URL: fake.url });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /compacted .* \(ClawdCode\)/);
    assert.match(r.out, /boundary: \S+ \(parent a3\); summary \S+, model claude-sonnet-4-5/);
    assert.match(r.out, /kept: 2 message\(s\) re-written/);
    assert.ok(fake.requests[0].prompt.includes("focus on CI"));
    const s = await loadFile(file);
    const ctx = buildClawdcodeContext(s, clawdcodeFormat.defaultLeaf(s));
    assert.deepEqual(ctx.items.map((i) => i.message), [
      { role: "user", content: "CLI SUMMARY" },
      { role: "user", content: "Thanks" },
      { role: "assistant", content: "Welcome." },
    ]);
  });

  it("a failing summarizer: a note on stderr, 30% kept with the failure summary", async () => {
    fake = await FakeAnthropic.start([{ kind: "error", status: 529 }, { kind: "error", status: 529 }], { apiKey: "cli-key" });
    const r = await ase(["compact", file], { ANTHROPIC_API_KEY: "cli-key", ANTHROPIC_BASE_URL: fake.url });
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /ase compact: note: the summary failed \(.*\); keeping the last 30% with a failure summary/);
    assert.match(r.out, /failure summary/);
    const s = await loadFile(file);
    const ctx = buildClawdcodeContext(s, clawdcodeFormat.defaultLeaf(s));
    // 30% of 10 is 3: a2, u3, a3 after the failure summary.
    assert.match(String(ctx.items[0].message.content), /^\[Compaction summary unavailable\] The 7 earliest message/);
    assert.deepEqual(ctx.items.slice(1).map((i) => i.message.content), ["Passed.", "Thanks", "Welcome."]);
  });

  it("nothing written, one line: no key, pi-only flags, another strategy, an unknown leaf", async () => {
    const before = readFileSync(file);
    let r = await ase(["compact", file]);
    assert.equal(r.code, 2);
    assert.match(r.err, /^ase compact: nothing written: ANTHROPIC_API_KEY is not set\n$/);
    r = await ase(["compact", file, "--dry-run", "--keep-recent", "100"]);
    assert.match(r.err, /--keep-recent is for pi sessions/);
    r = await ase(["compact", file, "--strategy", "truncate"]);
    assert.match(r.err, /--strategy truncate is for pi sessions/);
    r = await ase(["compact", file, "--dry-run", "--leaf", "nope"]);
    assert.match(r.err, /no entry with id "nope"/);
    assert.deepEqual(readFileSync(file), before);
  });
});

describe("ase context on clawdcode sessions", () => {
  for (const name of ["branches", "compaction-orphan"]) {
    it(`seed-002 ${name}: --format native prints the golden's {messages}`, async function () {
      needSeed002(this);
      const golden = JSON.parse(readFileSync(join(SEED_002_DIR, `${name}.golden.json`), "utf8")) as { file: string; context: { messages: unknown[] } };
      const r = await ase(["context", join(SEED_002_DIR, golden.file), "--format", "native"]);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(JSON.parse(r.out), { messages: golden.context.messages });
    });
  }

  it("our own fixture: every leaf prints the context the format builds", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ase-clawd-ctx-"));
    try {
      const file = join(dir, "s.jsonl");
      writeFileSync(
        file,
        jsonl([
          user("u1", null, "q"),
          toolUse("t1", "u1", "c1", "read", { path: "a" }),
          toolResult("r1", "t1", "c1", "x", "bad"),
          assistant("a1", "r1", "one"),
          user("u2", "r1", "rewound"),
          assistant("a2", "u2", [{ type: "text", text: "two" }]),
        ]),
      );
      const s = await loadFile(file);
      for (const leaf of s.tree.leaves()) {
        const r = await ase(["context", file, "--leaf", s.table.idAt(leaf)]);
        assert.equal(r.code, 0, r.err);
        assert.deepEqual(JSON.parse(r.out), { messages: buildClawdcodeContext(s, leaf).items.map((i) => i.message) });
      }
      assert.equal(s.tree.leaves().length, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
