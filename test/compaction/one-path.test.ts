import { strict as assert } from "node:assert";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { formatOf, openSession } from "../../src/core/formats/registry";
import { tempDir } from "../helpers/session-builder";
import { assistant, jsonl, toolResult, toolUse, user } from "../formats/clawdcode/lines";
import { FakeAnthropic } from "./fake-anthropic";
import { SMALL, turnsSession } from "./helpers";

const KEY = "one-path-key";
const FAST = { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, sleep: async () => {} }, budgets: { idleMs: 5000 } };
const SHARED = join(process.cwd(), "..", "shared", "fixtures");

/** A clawdcode session long enough to compact (its rule: summarize all but the last 20%). */
function clawdcodeSession(): string {
  const file = join(tempDir(), "s.jsonl");
  const recs = [
    user("u1", null, "Set up CI"),
    toolUse("t1", "u1", "call_1", "write", { path: "ci.yml" }),
    toolResult("r1", "t1", "call_1", "written"),
    assistant("a1", "r1", "Workflow written.", { input_tokens: 1100, output_tokens: 5 }),
    user("u2", "a1", "Run it"),
    assistant("a2", "u2", "Passed.", { input_tokens: 1250, output_tokens: 7 }),
    user("u3", "a2", "Thanks"),
    assistant("a3", "u3", "Welcome.", { input_tokens: 1300, output_tokens: 3 }),
  ];
  writeFileSync(file, jsonl(recs));
  return file;
}

async function ase(args: string[], env: NodeJS.ProcessEnv = {}) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env, cwd: process.cwd(), llm: FAST });
  return { code, out, err };
}

/** The file is the bytes it was plus whole new lines. */
function appendedOnly(file: string, before: Buffer): string {
  const after = readFileSync(file);
  assert.ok(after.length > before.length, "something was appended");
  assert.ok(after.subarray(0, before.length).equals(before), "the old bytes are untouched");
  const added = after.subarray(before.length).toString("utf8");
  assert.ok(added.endsWith("\n"), "whole lines only");
  for (const line of added.trimEnd().split("\n")) JSON.parse(line);
  return added;
}

describe("one compaction path for every format (issue 26)", () => {
  let fake: FakeAnthropic | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  const compacting = [
    { agent: "pi", make: turnsSession },
    { agent: "ClawdCode", make: clawdcodeSession },
  ];
  for (const { agent, make } of compacting) {
    it(`${agent}: the format's writer hook dry-runs, then summarizes and appends whole lines`, async () => {
      const file = make();
      const before = readFileSync(file);
      const s = await openSession(file);
      const format = formatOf(s);
      assert.equal(format.agent, agent);
      const compaction = format.writer?.compaction;
      assert.ok(compaction, `${agent} compacts through its writer`);
      const leaf = format.defaultLeaf(s);
      const dry = compaction.dryRun(s, leaf, { settings: SMALL, project: [] });
      assert.ok(dry.lines.length > 0 && !dry.nothingToDo, dry.lines.join("\n"));
      assert.ok(readFileSync(file).equals(before), "a dry run writes nothing");

      fake = await FakeAnthropic.start([{ kind: "message", text: "ONE PATH SUMMARY" }], { apiKey: KEY });
      const out = await compaction.run(s, leaf, { settings: SMALL, project: [], llm: { apiKey: KEY, baseURL: fake.url, ...FAST } });
      assert.equal(out.strategy, "summarize");
      assert.equal(out.fallbackReason, undefined);
      assert.ok(out.lines.length > 0 && out.lines.every((l) => !l.includes("\n")), "what was written, as plain lines");
      assert.ok(out.tokensBefore > 0 && out.tokensAfter > 0, `${out.tokensBefore} -> ${out.tokensAfter}`);
      assert.ok(appendedOnly(file, before).includes("ONE PATH SUMMARY"));
      const again = await openSession(file);
      assert.notEqual(again.tree.indexOf(out.entryId), undefined, "the outcome names an entry now in the file");
    });

    it(`${agent}: ase compact runs the same hook and says the same things`, async () => {
      const file = make();
      const before = readFileSync(file);
      // pi's settings are flags of its strategies; the seed's one way takes none.
      const small = agent === "pi" ? ["--keep-recent", String(SMALL.keepRecentTokens)] : [];
      const dry = await ase(["compact", file, "--dry-run", ...small]);
      assert.equal(dry.code, 0, dry.err);
      assert.match(dry.out, new RegExp(`^dry run for .* \\(${agent}; nothing written\\)\\n`));
      assert.ok(readFileSync(file).equals(before));
      fake = await FakeAnthropic.start([{ kind: "message", text: "CLI ONE PATH" }], { apiKey: KEY });
      const r = await ase(["compact", file, ...small], { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url });
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, new RegExp(`^compacted .* \\(${agent}\\) in `));
      assert.ok(appendedOnly(file, before).includes("CLI ONE PATH"));
    });
  }

  const refusing = [
    { agent: "Claude Code", fixture: join("claude-code", "handmade", "branch-of-rewind-split.jsonl") },
    { agent: "Seed 000", fixture: join("seed-000", "branches.jsonl") },
  ];
  for (const { agent, fixture } of refusing) {
    it(`${agent}: the same entry point refuses by name (no compaction hook) and writes nothing`, async function () {
      if (!existsSync(join(SHARED, fixture))) this.skip();
      const file = join(tempDir(), "s.jsonl");
      copyFileSync(join(SHARED, fixture), file);
      const before = readFileSync(file);
      const s = await openSession(file);
      assert.equal(formatOf(s).agent, agent);
      assert.equal(formatOf(s).writer?.compaction, undefined);
      const r = await ase(["compact", file]);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, new RegExp(`a ${agent} session; compacting is offered for pi, ClawdCode sessions only \\(.+\\); nothing written`));
      assert.ok(readFileSync(file).equals(before), "byte-identical");
    });
  }
});
