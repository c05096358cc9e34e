import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../../src/cli/main";
import { seed000Format } from "../../../src/core/formats/seed-000/format";
import type { Seed000Message } from "../../../src/core/formats/seed-000/messages";
import { COMPRESS_PREFIX, SMART_PREFIX } from "../../../src/core/formats/seed-000/strategies";
import { FakeAnthropic } from "../../compaction/fake-anthropic";
import { FAST_RETRY } from "../../compaction/helpers";
import { assistant, type Line, load, needSeedFixtures, OWN_FIXTURES, SHARED_FIXTURES, toolCall, toolResult, user } from "./helpers";

async function ase(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env, cwd: process.cwd(), llm: { retry: FAST_RETRY } });
  return { code, out, err };
}

async function json(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = await ase(args, env);
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out);
}

/** 13 turns (52 messages): user, assistant, tool call, tool result; the 9th user message mentions an error. */
function longFile(dir: string): string {
  const lines: Line[] = [];
  let parent: string | null = null;
  for (let k = 1; k <= 13; k++) {
    for (const l of [
      user(`u${k}`, parent, k === 9 ? "that error again" : `next (${k})`),
      assistant(`a${k}`, `u${k}`, `Looking at ${k}.`, { model: "claude-sonnet-4-5", usage: { input_tokens: 100 * k, output_tokens: 5 } }),
      toolCall(`c${k}`, `a${k}`, "run_test", { k }),
      toolResult(`r${k}`, `c${k}`, `ok ${k}`),
    ]) {
      lines.push(l);
      parent = l.id;
    }
  }
  const file = join(dir, "long.jsonl");
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return file;
}

describe("ase context on seed-000 sessions", () => {
  let dir: string;
  let fake: FakeAnthropic | undefined;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "ase-seed000-cli-"))));
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it("--format native prints {messages} for the shared goldens' default leaves", async function () {
    needSeedFixtures(this, "branches.jsonl", "branches.golden.json", "long-strategies.jsonl", "long-strategies.golden.json");
    for (const name of ["branches", "long-strategies"]) {
      const golden = JSON.parse(readFileSync(join(SHARED_FIXTURES, `${name}.golden.json`), "utf8"));
      const out = await json(["context", join(SHARED_FIXTURES, `${name}.jsonl`), "--format", "native"]);
      assert.deepEqual(out, { messages: golden.context.messages });
    }
  });

  it("every leaf of our branchy fixture: --leaf prints its golden {messages}; no --leaf is the default leaf", async () => {
    const file = join(OWN_FIXTURES, "branchy.jsonl");
    const golden = JSON.parse(readFileSync(join(OWN_FIXTURES, "branchy.golden.json"), "utf8")) as { defaultLeaf: string; leaves: Record<string, { entryIds: string[]; messages: unknown[] }> };
    const s = await load(file);
    assert.deepEqual(s.tree.leaves().map((i) => s.metas[i].id).sort(), Object.keys(golden.leaves).sort());
    for (const [leaf, want] of Object.entries(golden.leaves)) {
      assert.deepEqual(await json(["context", file, "--format", "native", "--leaf", leaf]), { messages: want.messages }, leaf);
      assert.deepEqual(seed000Format.context(s, s.requireIndex(leaf)).messages.map((m) => m.entryId), want.entryIds, leaf);
    }
    assert.deepEqual(await json(["context", file]), { messages: golden.leaves[golden.defaultLeaf].messages });
  });

  it("--strategy truncate|compress|smart reproduce the shared goldens' selections (limit 0)", async function () {
    needSeedFixtures(this, "long-strategies.jsonl", "long-strategies.golden.json");
    const file = join(SHARED_FIXTURES, "long-strategies.jsonl");
    const golden = JSON.parse(readFileSync(join(SHARED_FIXTURES, "long-strategies.golden.json"), "utf8")).context.strategies;
    assert.deepEqual((await json(["context", file, "--strategy", "truncate", "--max-tokens", "0"])).messages, golden.truncate);
    fake = await FakeAnthropic.start([], { apiKey: "k", fallback: { kind: "message", text: "SUMMARY" } });
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.url };
    const compress = (await json(["context", file, "--strategy", "compress", "--max-tokens", "0"], env)).messages as Seed000Message[];
    assert.deepEqual(compress[0], { role: "user", content: `${COMPRESS_PREFIX}SUMMARY` });
    assert.deepEqual(compress.slice(1), golden.compress.slice(1));
    const smart = (await json(["context", file, "--strategy", "smart", "--max-tokens", "0"], env)).messages as Seed000Message[];
    assert.deepEqual(smart[0], { role: "user", content: `${SMART_PREFIX}SUMMARY` });
    assert.deepEqual(smart.slice(1), golden.smart.slice(1));
    assert.equal(fake.requests.length, 2);
  });

  it("--dry-run: the selection by entry id, and no call even with a key", async () => {
    const file = longFile(dir);
    fake = await FakeAnthropic.start([], { apiKey: "k" });
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.url };
    const c = await json(["context", file, "--strategy", "compress", "--max-tokens", "0", "--dry-run"], env);
    assert.deepEqual(
      [c.leafId, c.strategy, c.applies, c.keepRecent, c.maxTokens, c.summarized, c.kept.length, c.kept[0], c.dropped],
      ["r13", "compress", true, 50, 0, ["u1", "a1"], 50, "c1", []],
    );
    assert.ok(c.tokensBefore > c.keptTokens);
    const s = await json(["context", file, "--strategy", "smart", "--max-tokens", "0", "--dry-run"], env);
    assert.ok(s.kept.includes("u9") && s.kept.includes("c1") && s.kept.includes("r1") && !s.kept.includes("a1"));
    assert.equal(s.kept.length + s.summarized.length, 52);
    assert.deepEqual([s.reasons.u9, s.reasons.c1, s.reasons.r1, Object.keys(s.reasons).length], ["error", "tool-use", "tool-use", s.kept.length]);
    assert.equal(c.reasons, undefined);
    const t = await json(["context", file, "--strategy", "truncate", "--keep-recent", "5", "--max-tokens", "0", "--dry-run"], env);
    assert.deepEqual(t.kept, ["r12", "u13", "a13", "c13", "r13"]);
    assert.equal(t.dropped.length, 47);
    const below = await json(["context", file, "--strategy", "compress", "--dry-run"], env);
    assert.equal(below.applies, false);
    assert.match(below.why, /not over the 180000 limit/);
    assert.equal(fake.requests.length, 0);
  });

  it("under the default limit a strategy changes nothing and says so on stderr; truncate needs no key", async () => {
    const file = longFile(dir);
    const plain = await json(["context", file]);
    const r = await ase(["context", file, "--strategy", "compress"]);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out), plain);
    assert.match(r.err, /note: compress changes nothing: the context is \d+ tokens, not over the 180000 limit/);
    const t = await json(["context", file, "--strategy", "truncate", "--max-tokens", "10", "--keep-recent", "3"]);
    assert.deepEqual(t.messages, plain.messages.slice(-3));
  });

  it("the summary request carries the session's model and our prompt; --model overrides it", async () => {
    const file = longFile(dir);
    fake = await FakeAnthropic.start([], { apiKey: "k", fallback: { kind: "message", text: "S" } });
    const env = { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: fake.url };
    await json(["context", file, "--strategy", "compress", "--max-tokens", "0"], env);
    await json(["context", file, "--strategy", "compress", "--max-tokens", "0", "--model", "claude-haiku-4-5"], env);
    assert.deepEqual(fake.requests.map((q) => q.body.model), ["claude-sonnet-4-5", "claude-haiku-4-5"]);
    assert.ok(fake.requests[0].prompt.startsWith("<conversation>\n[User]: next (1)\n\n[Assistant]: Looking at 1.\n</conversation>"));
  });

  it("errors: exit 2 and one error line on stderr, nothing on stdout", async () => {
    const file = longFile(dir);
    const pi = join(dir, "pi.jsonl");
    writeFileSync(pi, `${JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/" })}\n`);
    fake = await FakeAnthropic.start([], { apiKey: "right-key" });
    const cases: Array<[string[], RegExp, NodeJS.ProcessEnv?]> = [
      [["context", file, "--strategy", "squash"], /--strategy must be truncate, compress, smart for a Seed 000 session; got "squash"/],
      [["context", file, "--strategy", "compress", "--max-tokens", "0"], /compress needs a summary of 2 message\(s\): ANTHROPIC_API_KEY is not set/],
      [["context", file, "--strategy", "compress", "--max-tokens", "0"], /compress: no summary: .*401/, { ANTHROPIC_API_KEY: "wrong-key", ANTHROPIC_BASE_URL: fake.url }],
      [["context", file, "--strategy", "truncate", "--format", "xml"], /--strategy prints the agent's own messages: use it with --format native/],
      [["context", file, "--keep-recent", "3"], /--keep-recent applies to --strategy only/],
      [["context", file, "--dry-run"], /--dry-run applies to --strategy only/],
      [["context", file, "--strategy", "truncate", "--keep-recent", "-1"], /Option '--keep-recent' argument is ambiguous/],
      [["context", file, "--strategy", "truncate", "--keep-recent", "x"], /--keep-recent expects a whole number, got "x"/],
      [["context", file, "--strategy", "compress", "--timeout", "0"], /--timeout expects a positive number of seconds, got "0"/],
      [["context", pi, "--strategy", "truncate"], /a pi session has no context strategies \(pi shrinks a context by compaction: ase compact\)/],
    ];
    for (const [args, re, env] of cases) {
      const r = await ase(args, env);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.err}`);
      assert.equal(r.out, "", args.join(" "));
      assert.match(r.err, re);
      // Notes (an SDK notice about the model) may come first; the error is one line.
      assert.equal(r.err.trim().split("\n").filter((l) => !l.startsWith("ase context: note: ")).length, 1, r.err);
    }
  });
});
