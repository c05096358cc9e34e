import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../src/cli/main";
import { timelineBar } from "../../src/cli/commands/tokens-timeline";
import { assistant, entry, header, tempDir, user, writeSession } from "../helpers/session-builder";
import * as cc from "../formats/claude-code/lines";

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (t) => out.push(t), err: (t) => err.push(t), env: {}, cwd: "/" });
  return { code, out: out.join(""), err: err.join("") };
}

const usage = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output });

function piFile(): string {
  return writeSession([
    header(),
    user("u1", null, "start"),
    assistant("a1", "u1", "one", { usage: usage(150_000, 500) }),
    user("u2", "a1", "more"),
    assistant("a2", "u2", "two", { usage: usage(160_000, 500) }),
    entry("compaction", "c1", "a2", { summary: "s".repeat(8000), firstKeptEntryId: "c1", tokensBefore: 160_500 }),
    user("u3", "c1", "after"),
    assistant("a3", "u3", "three", { usage: usage(0, 0) }),
  ]);
}

type TimelineJson = { leafId: string; model: string | null; window: number; threshold: number; points: Array<Record<string, unknown>>; compactions: Array<Record<string, unknown>> };

describe("ase tokens --timeline", () => {
  it("pi: one line per step with a bar scaled to the window, the compaction line, threshold and window", async () => {
    const r = await run(["tokens", piFile(), "--timeline"]);
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trimEnd().split("\n");
    const steps = lines.filter((l) => /^\s+\d+\s/.test(l));
    assert.equal(steps.length, 3);
    assert.match(steps[0], /^\s+1\s+2026-\S+Z\s+a1\s+150\.5k\s+recorded\s+#{30}$/);
    assert.match(steps[1], /^\s+2\s.*a2\s+160\.5k\s+recorded\s+#{32}$/);
    assert.match(steps[2], /^\s+3\s.*a3\s+[\d.]+k?\s+estimated\s/);
    // The compaction sits between the steps it separates.
    const c = lines.findIndex((l) => l.includes("compacted 160.5k -> "));
    assert.ok(c > lines.indexOf(steps[1]) && c < lines.indexOf(steps[2]), r.out);
    assert.match(lines[c], /compacted 160\.5k -> 2\.\dk at c1 .*\[recorded -> estimated\]/);
    assert.match(r.out, /^threshold 183\.6k/m);
    assert.match(r.out, /^window {4}200\.0k$/m);
  });

  it("--json has the documented shape; --leaf picks the path and --window the scale", async () => {
    const file = piFile();
    const r = await run(["tokens", file, "--timeline", "--json", "--leaf", "a1", "--window", "300000"]);
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out) as TimelineJson;
    assert.deepEqual(Object.keys(j), ["leafId", "model", "window", "threshold", "points", "compactions"]);
    assert.equal(j.leafId, "a1");
    assert.equal(j.window, 300_000);
    assert.equal(j.model, "claude-sonnet-4-5");
    assert.deepEqual(j.points, [{ entryId: "a1", time: j.points[0].time, tokens: 150_500, source: "recorded", composition: j.points[0].composition }]);
    // The estimated split by kind adds up to the step's size, the system prompt and tools first.
    const parts = j.points[0].composition as Record<string, number>;
    assert.equal(Object.keys(parts)[0], "system");
    assert.ok(parts.user > 0);
    assert.equal(Object.values(parts).reduce((a, b) => a + b, 0), 150_500);
    assert.match(String(j.points[0].time), /^\d{4}-\d\d-\d\dT.*Z$/);
    const all = JSON.parse((await run(["tokens", file, "--timeline", "--json"])).out) as TimelineJson;
    assert.deepEqual(all.compactions.map((c) => Object.keys(c)), [["entryId", "before", "after"]]);
    assert.deepEqual([all.compactions[0].entryId, all.compactions[0].before], ["c1", 160_500]);
    assert.deepEqual(all.points.map((p) => p.source), ["recorded", "recorded", "estimated"]);
  });

  it("Claude Code: a multi-line response is one step; postTokens is the size after the compaction", async () => {
    const dir = tempDir();
    const file = join(dir, "cc.jsonl");
    const final = (r: cc.Raw): cc.Raw => ({ ...r, message: { ...(r.message as cc.Raw), usage: { input_tokens: 20_000, cache_creation_input_tokens: 0, cache_read_input_tokens: 100_000, output_tokens: 500 } } });
    writeFileSync(
      file,
      cc.jsonl([
        cc.user("u1", null, "go"),
        cc.fragment("a1", "u1", "msg_1", cc.thinking("hm")),
        final(cc.fragment("a2", "a1", "msg_1", cc.text("done"))),
        cc.boundary("b1", "a2", { trigger: "auto", preTokens: 160_500, postTokens: 2_100 }),
        cc.compactSummary("s1", "b1", "we went"),
      ]),
    );
    const r = await run(["tokens", file, "--timeline"]);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out.split("\n").filter((l) => /^\s+\d+\s/.test(l)).length, 1);
    assert.match(r.out, /^\s+1\s.*a2\s+120\.5k\s+recorded/m);
    assert.match(r.out, /compacted 160\.5k -> 2\.1k at b1 .*\[recorded\]/);
    const j = JSON.parse((await run(["tokens", file, "--timeline", "--json"])).out) as TimelineJson;
    assert.deepEqual(j.compactions, [{ entryId: "b1", before: 160_500, after: 2_100 }]);
  });

  it("errors: pi-only flags, an unknown leaf, a bad window: exit 2, one line on stderr, nothing on stdout", async () => {
    const file = piFile();
    for (const [args, re] of [
      [["--exact"], /^ase tokens: --timeline cannot be combined with --exact/],
      [["--reserve", "100"], /^ase tokens: --timeline cannot be combined with --reserve/],
      [["--anthropic-count"], /^ase tokens: --timeline cannot be combined with --anthropic-count/],
      [["--leaf", "nope"], /^ase tokens: .*no entry with id "nope" \(given by --leaf\)/],
      [["--window", "lots"], /^ase tokens: .*window/],
    ] as Array<[string[], RegExp]>) {
      const r = await run(["tokens", file, "--timeline", ...args]);
      assert.equal(r.code, 2, args.join(" "));
      assert.equal(r.out, "", args.join(" "));
      assert.match(r.err, re);
      assert.equal(r.err.trimEnd().split("\n").length, 1, r.err);
    }
  });

  it("the bar: # per fortieth of the window, + past it", () => {
    assert.equal(timelineBar(0, 200_000), "");
    assert.equal(timelineBar(100_000, 200_000), "#".repeat(20));
    assert.equal(timelineBar(250_000, 200_000), `${"#".repeat(40)}+`);
  });
});
