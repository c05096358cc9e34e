import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keepCountFor, planClawdcodeCompaction } from "../../../src/core/formats/clawdcode/compaction-plan";
import { failureSummary, summaryPrompt } from "../../../src/core/formats/clawdcode/compaction-prompt";
import { rankFiles, readRankedFiles } from "../../../src/core/formats/clawdcode/file-ranking";
import { assistant, boundary, memory, type Raw, summary, tenMessages, toolResult, toolUse, user } from "./lines";


describe("clawdcode: compaction plan", () => {
  it("kept count = ceil(n x share) in whole numbers, at least 1, at most n", () => {
    assert.equal(keepCountFor(10, 20), 2);
    assert.equal(keepCountFor(10, 30), 3);
    assert.equal(keepCountFor(9, 20), 2);
    assert.equal(keepCountFor(11, 20), 3);
    assert.equal(keepCountFor(20, 30), 6);
    assert.equal(keepCountFor(3, 20), 1);
    assert.equal(keepCountFor(1, 30), 1);
    assert.equal(keepCountFor(0, 20), 0);
    assert.equal(keepCountFor(45, 20), 9);
    assert.equal(keepCountFor(100, 30), 30);
  });

  it("20%: summarizes all but the last 2 of 10; the kept orphan result is dropped", () => {
    const s = memory(tenMessages());
    const p = planClawdcodeCompaction(s, 9);
    assert.equal(p.messageCount, 10);
    assert.equal(p.keepCount, 2);
    assert.deepEqual(p.toSummarize.map((i) => i.line.uuid), ["u1", "a1", "t1", "r1", "a2", "u2", "a3", "t2"]);
    assert.deepEqual(p.kept.map((i) => i.line.uuid), ["a4"]);
    assert.deepEqual(p.droppedOrphans, ["r2"]);
    assert.equal(p.leafUuid, "a4");
    assert.equal(p.boundary, null);
  });

  it("30% (the fallback): keeps 3 of 10, the pair t2/r2 stays whole", () => {
    const p = planClawdcodeCompaction(memory(tenMessages()), 9, { keepPercent: 30 });
    assert.equal(p.keepCount, 3);
    assert.deepEqual(p.kept.map((i) => i.line.uuid), ["t2", "r2", "a4"]);
    assert.deepEqual(p.droppedOrphans, []);
  });

  it("after an earlier compaction only the current context counts (the old summary is summarized again)", () => {
    const s = memory([user("o1", null, "old"), boundary("b1", "o1", 900), summary("s1", "b1", "sum"), user("u1", "s1", "a"), assistant("a1", "u1", "b"), user("u2", "a1", "c")]);
    const p = planClawdcodeCompaction(s, 5);
    assert.equal(p.boundary, "b1");
    assert.equal(p.messageCount, 4);
    assert.deepEqual(p.toSummarize.map((i) => i.line.uuid), ["s1", "u1", "a1"]);
  });

  it("tokens before: the newest recorded usage plus chars/4 of what follows; estimates alone without usage", () => {
    const recs = [...tenMessages(), user("u9", "a4", "x".repeat(40))];
    const p = planClawdcodeCompaction(memory(recs), 10);
    assert.equal(p.tokensBeforeSource, "usage");
    assert.equal(p.tokensBefore, 1250 + 7 + 10);
    const e = planClawdcodeCompaction(memory([user("u1", null, "x".repeat(400)), assistant("a1", "u1", "y".repeat(40))]), 1);
    assert.equal(e.tokensBeforeSource, "estimate");
    assert.equal(e.tokensBefore, 110);
    assert.equal(e.keptTokens, 10);
  });

  it("threshold: 80% of the model's window (claude-* = 200,000: 160,000), or of a given window", () => {
    const at = (input: number) => planClawdcodeCompaction(memory([user("u1", null, "q"), assistant("a1", "u1", "a", { input_tokens: input, output_tokens: 0 })]), 1);
    assert.equal(at(160_000).contextWindow, 200_000);
    assert.equal(at(160_000).threshold, 160_000);
    assert.equal(at(160_000).overThreshold, true);
    assert.equal(at(159_999).overThreshold, false);
    const small = planClawdcodeCompaction(memory([user("u1", null, "q"), assistant("a1", "u1", "a", { input_tokens: 801, output_tokens: 0 })]), 1, { contextWindow: 1001 });
    assert.equal(small.threshold, 800);
    assert.equal(small.overThreshold, true);
  });

  it("refuses a leaf that is not there and a share that is not a whole percentage", () => {
    assert.throws(() => planClawdcodeCompaction(memory([]), -1), /nothing to compact/);
    assert.throws(() => planClawdcodeCompaction(memory(tenMessages()), 9, { keepPercent: 0.2 }), /whole percentage/);
  });
});

describe("clawdcode: files for the summary", () => {
  it("ranked: modified first, then mentions, then recency", () => {
    const s = memory([
      user("u1", null, "look at src/b.ts and src/c.ts, then src/c.ts again"),
      toolUse("t1", "u1", "c1", "read", { path: "src/a.ts" }),
      toolResult("r1", "t1", "c1", "a"),
      toolUse("t2", "r1", "c2", "Edit", { file_path: "src/z.ts" }),
      toolResult("r2", "t2", "c2", "ok"),
      toolUse("t3", "r2", "c3", "read", { path: "src/c.ts" }),
      toolResult("r3", "t3", "c3", "c"),
      toolUse("t4", "r3", "c4", "read", { path: "src/b.ts" }),
      toolUse("t5", "t4", "c5", "grep", { paths: ["src/d.ts"] }),
      toolUse("t6", "t5", "c6", "write", { path: "src/y.ts" }),
      assistant("a1", "t6", "done"),
    ]);
    const p = planClawdcodeCompaction(s, 10, { keepPercent: 1 });
    assert.deepEqual(
      p.rankedFiles.map((f) => [f.path, f.modified, f.mentions]),
      [
        // Both modified, one mention each: the later one first.
        ["src/y.ts", true, 1],
        ["src/z.ts", true, 1],
        // Two mentions each (the user's message and a read): the later read first.
        ["src/b.ts", false, 2],
        ["src/c.ts", false, 2],
        // One mention each: the later first.
        ["src/d.ts", false, 1],
        ["src/a.ts", false, 1],
      ],
    );
  });

  describe("read from the cwd", () => {
    let cwd: string;
    let outside: string;
    beforeEach(() => {
      const root = mkdtempSync(join(tmpdir(), "ase-clawd-files-"));
      cwd = join(root, "proj");
      outside = join(root, "secret.txt");
      mkdirSync(join(cwd, "src"), { recursive: true });
      writeFileSync(outside, "SECRET\n");
      for (const n of ["a", "b", "c", "d", "e", "f"]) writeFileSync(join(cwd, "src", `${n}.ts`), `// ${n}\n`);
      writeFileSync(join(cwd, "src/long.ts"), Array.from({ length: 1500 }, (_, k) => `line ${k + 1}`).join("\n") + "\n");
      writeFileSync(join(cwd, "src/bin.dat"), Buffer.from([1, 0, 2]));
      symlinkSync(outside, join(cwd, "src/link.ts"));
    });
    afterEach(() => rmSync(join(cwd, ".."), { recursive: true, force: true }));

    const ranked = (paths: string[]) => paths.map((path, k) => ({ path, modified: false, mentions: 1, lastSeen: k }));

    it("at most 5 files, the first ranked that exist inside the cwd; outside paths, links out, missing and binary files are passed over", () => {
      const choice = readRankedFiles(cwd, ranked(["../secret.txt", outside, "src/link.ts", "src/missing.ts", "src/bin.dat", "src/a.ts", "src/b.ts", "src/c.ts", `${cwd}/src/d.ts`, "src/e.ts", "src/f.ts"]), [cwd]);
      const got = choice.included;
      assert.deepEqual(got.map((f) => f.path), ["src/a.ts", "src/b.ts", "src/c.ts", `${cwd}/src/d.ts`, "src/e.ts"]);
      assert.deepEqual(choice.notRead, [
        { path: "../secret.txt", reason: "outside the project" },
        { path: outside, reason: "outside the project" },
        { path: "src/link.ts", reason: "outside the project, through a symbolic link" },
      ]);
      assert.equal(got[0].text, "// a");
      assert.ok(!JSON.stringify(got).includes("SECRET"));
    });

    it("at most 1,000 lines of a file, and the prompt says it was cut", () => {
      const [f] = readRankedFiles(cwd, ranked(["src/long.ts"]), [cwd]).included;
      assert.equal(f.lines, 1000);
      assert.equal(f.totalLines, 1500);
      assert.ok(f.text.endsWith("line 1000"));
      const prompt = summaryPrompt([], [f]);
      assert.ok(prompt.includes('<file path="src/long.ts" lines="1-1000 of 1500">\nline 1\n'));
    });

    it("no cwd (or a relative one): no files", () => {
      assert.deepEqual(readRankedFiles("", ranked(["src/a.ts"]), [cwd]).included, []);
      assert.deepEqual(readRankedFiles("proj", ranked(["src/a.ts"]), [cwd]).included, []);
    });

    it("a cwd outside the project opened: nothing read, every ranked file named", () => {
      const choice = readRankedFiles(cwd, ranked(["src/a.ts"]), [join(cwd, "src")]);
      assert.deepEqual(choice, { included: [], notRead: [{ path: "src/a.ts", reason: "outside the project" }] });
      assert.deepEqual(readRankedFiles(cwd, ranked(["src/a.ts"]), []).included, []);
    });
  });

  it("prompt: the summarized messages as a transcript; failure summary names the count and reason", () => {
    const p = planClawdcodeCompaction(memory(tenMessages()), 9);
    const prompt = summaryPrompt(p.toSummarize, []);
    assert.ok(prompt.startsWith("<conversation>\n[User]: Set up CI\n\n[Assistant]: I'll add a workflow.\n\n[Assistant tool call]: write({\"path\":\".github/workflows/ci.yml\"})\n\n[Tool result]: written"));
    assert.ok(!prompt.includes("The test job passed."));
    assert.match(failureSummary(8, "server error 500"), /^\[Compaction summary unavailable\] The 8 earliest message\(s\) .* \(server error 500\)\./);
  });
});
