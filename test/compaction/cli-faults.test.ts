import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import type { CliIO } from "../../src/cli/cli-error";
import { main } from "../../src/cli/main";
import { summaryProgressPrinter } from "../../src/cli/summary-flags";
import { TRUNCATION_MARKER } from "../../src/core/formats/pi/compaction/truncate";
import { FakeAnthropic, type FakeReply } from "./fake-anthropic";
import { expectOneCompactionLine, expectUnchanged, turnsSession } from "./helpers";

const KEY = "cli-key";
/** Small budgets and instant retries so every fault ends in well under two seconds. */
const HOOKS: CliIO["llm"] = { retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2, sleep: async () => {} }, budgets: { idleMs: 300, attemptMs: 600 } };

async function ase(args: string[], env: NodeJS.ProcessEnv, llm: CliIO["llm"] = HOOKS) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env, cwd: process.cwd(), llm });
  return { code, out, err, lines: err.split("\n").filter(Boolean) };
}

/**
 * The CLI's failure shape: exit 2, nothing on stdout, every stderr line from the
 * command, progress as `note:` lines, and exactly one error line, the last.
 */
function expectOneErrorLine(r: { code: number; out: string; lines: string[] }, cmd: string, expected: RegExp): string {
  assert.equal(r.code, 2, r.lines.join("\n"));
  assert.equal(r.out, "");
  for (const l of r.lines) assert.ok(l.startsWith(`ase ${cmd}: `), `stderr line from the command: ${l}`);
  const errors = r.lines.filter((l) => !l.startsWith(`ase ${cmd}: note: `));
  assert.equal(errors.length, 1, r.lines.join("\n"));
  assert.equal(errors[0], r.lines[r.lines.length - 1], "the error is the last line");
  assert.ok(errors[0].startsWith(`ase ${cmd}: nothing written: `), errors[0]);
  assert.match(errors[0], expected);
  return errors[0];
}

interface Fault {
  name: string;
  reply: FakeReply;
  /** The server wants another key. */
  badKey?: boolean;
  args?: string[];
  message: RegExp;
  /** A transient failure: --allow-fallback writes a truncation instead. */
  transient: boolean;
}

const FAULTS: Fault[] = [
  { name: "401", reply: { kind: "message", text: "unused" }, badKey: true, message: /the API key was rejected \(401\): invalid x-api-key$/, transient: false },
  {
    name: "429 with retry-after: 3 and a 1 s --timeout",
    reply: { kind: "error", status: 429, type: "rate_limit_error", headers: { "retry-after": "3" } },
    args: ["--timeout", "1"],
    message: /rate limited \(429\): .*; gave up: waiting 3 s to retry would pass the 1 s budget \(waited 0(\.\d)? s, 1 attempt\)$/,
    transient: true,
  },
  { name: "500", reply: { kind: "error", status: 500 }, message: /server error \(500\): fake error 500 \(after 2 attempts, waited/, transient: true },
  { name: "529 (overloaded)", reply: { kind: "error", status: 529, type: "overloaded_error" }, message: /the API is overloaded \(529\).*\(after 2 attempts/, transient: true },
  { name: "connection reset mid-stream", reply: { kind: "reset-mid-stream", text: "a partial summary" }, message: /connection to http:\/\/127\.0\.0\.1:\d+ failed: terminated \(after 2 attempts, waited \d(\.\d)? s\)$/, transient: true },
  { name: "a hang (no bytes)", reply: { kind: "hang" }, message: /no data from http:\/\/127\.0\.0\.1:\d+ for 0\.3 s \(the idle budget\) \(after 2 attempts, waited \d(\.\d)? s\)$/, transient: true },
  { name: "a trickle that never ends", reply: { kind: "trickle", everyMs: 50 }, message: /within the 0\.6 s per-attempt budget \(after 2 attempts, waited \d(\.\d)? s\)$/, transient: true },
  { name: "a malformed stream (broken JSON event)", reply: { kind: "malformed" }, message: /the API sent a response that is not valid JSON: /, transient: false },
  { name: "garbage instead of an event stream", reply: { kind: "garbage" }, message: /the answer from http:\/\/127\.0\.0\.1:\d+ was not a Messages API stream: /, transient: false },
  { name: "an empty summary (no text)", reply: { kind: "no-text" }, message: /the model returned no text/, transient: false },
];

describe("ase compact / ase branch against a failing Messages API", () => {
  let fake: FakeAnthropic | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  const start = async (f: Fault) => (fake = await FakeAnthropic.start(() => f.reply, { apiKey: f.badKey ? "another-key" : KEY }));
  const env = () => ({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake?.url });

  for (const f of FAULTS) {
    it(`${f.name}: compact exits 2 with one error line, the file is byte-identical`, async () => {
      await start(f);
      const file = turnsSession();
      const before = readFileSync(file);
      const r = await ase(["compact", file, "--keep-recent", "250", ...(f.args ?? [])], env());
      expectOneErrorLine(r, "compact", f.message);
      expectUnchanged(file, before);
      if (!f.transient) assert.equal(fake?.requests.length, 1, "not retried");
    });

    it(`${f.name}: branch --summarize exits 2 with one error line, the file is byte-identical`, async () => {
      await start(f);
      const file = turnsSession();
      const before = readFileSync(file);
      const r = await ase(["branch", file, "--to", "a0000003", "--summarize", ...(f.args ?? [])], env());
      expectOneErrorLine(r, "branch", f.message);
      expectUnchanged(file, before);
    });

    it(`${f.name}: compact --allow-fallback ${f.transient ? "writes a truncation" : "still writes nothing"}`, async () => {
      await start(f);
      const file = turnsSession();
      const before = readFileSync(file);
      const r = await ase(["compact", file, "--keep-recent", "250", "--allow-fallback", ...(f.args ?? [])], env());
      if (!f.transient) {
        expectOneErrorLine(r, "compact", f.message);
        expectUnchanged(file, before);
        return;
      }
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /strategy truncate \(fallback\)/);
      assert.ok(r.lines.every((l) => l.startsWith("ase compact: note: ")), r.err);
      assert.ok(r.lines.some((l) => /^ase compact: note: the summary failed \(.+\); falling back to truncate$/.test(l)), r.err);
      await expectOneCompactionLine(file, before, TRUNCATION_MARKER);
    });
  }

  it("--timeout is the overall budget: a hang ends at it, whatever the other budgets", async () => {
    fake = await FakeAnthropic.start([{ kind: "hang" }], { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const r = await ase(["compact", file, "--keep-recent", "250", "--timeout", "0.4"], env(), { budgets: { idleMs: 60_000, attemptMs: 60_000 } });
    expectOneErrorLine(r, "compact", /nothing written: no answer within the 0\.4 s budget \(waited 0\.\d s, 1 attempt\)$/);
    expectUnchanged(file, before);
  });

  it("--timeout must be a positive number of seconds: exit 2 and a clear line otherwise", async () => {
    const file = turnsSession();
    const before = readFileSync(file);
    for (const cmd of [["compact", file], ["branch", file, "--to", "a0000003", "--summarize"]]) {
      for (const bad of ["0", "-1", "abc", "", "Infinity", "1e999", "5s"]) {
        const r = await ase([...cmd, `--timeout=${bad}`], { ANTHROPIC_API_KEY: KEY });
        assert.equal(r.code, 2, `${cmd[0]} --timeout=${bad}`);
        assert.deepEqual(r.lines, [`ase ${cmd[0]}: --timeout expects a positive number of seconds, got "${bad}"`]);
      }
    }
    expectUnchanged(file, before);
  });

  it("--help lists --timeout SECONDS for compact and branch", async () => {
    const r = await ase(["--help"], {});
    assert.match(r.out, /ase compact <file> .*\[--timeout SECONDS\]/);
    assert.match(r.out, /ase branch <file> .*\[--timeout SECONDS\]/);
  });

  it("retry progress says how long it has waited of the budget", async () => {
    fake = await FakeAnthropic.start([{ kind: "error", status: 429, type: "rate_limit_error", headers: { "retry-after": "0" } }, { kind: "message", text: "AFTER RETRY" }], { apiKey: KEY });
    const file = turnsSession();
    const before = readFileSync(file);
    const r = await ase(["compact", file, "--keep-recent", "250", "--model", "claude-haiku-4-5", "--timeout", "120"], env(), {});
    assert.equal(r.code, 0, r.err);
    // A busy machine may have waited a second or two by then: the form is what is checked.
    assert.deepEqual(r.lines.map((l) => l.replace(/\(429\): .*; retry/, "(429): …; retry").replace(/waited \d+ s of/, "waited N s of")), ["ase compact: note: history summary: rate limited (429): …; retry 2 in 0 s (waited N s of 120 s)"]);
    await expectOneCompactionLine(file, before, "AFTER RETRY");
  });

  it("a deprecated model: exactly one note line from the SDK's warning, nothing on the console", async () => {
    fake = await FakeAnthropic.start([{ kind: "error", status: 529 }], { apiKey: KEY, fallback: { kind: "message", text: "SUMMARY" } });
    const file = turnsSession();
    const before = readFileSync(file);
    const calls: unknown[] = [];
    const original = console.warn;
    console.warn = (...a: unknown[]) => void calls.push(a);
    let r: Awaited<ReturnType<typeof ase>>;
    try {
      r = await ase(["compact", file, "--keep-recent", "250", "--model", "claude-sonnet-4-5"], env());
    } finally {
      console.warn = original;
    }
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(calls, []);
    const notes = r.lines.filter((l) => /deprecated/.test(l));
    assert.equal(notes.length, 1, r.err);
    assert.match(notes[0], /^ase compact: note: The model 'claude-sonnet-4-5' is deprecated and will reach end-of-life on [^\n]+$/);
    assert.equal(fake.requests.length, 2, "the retry did not print it again");
    await expectOneCompactionLine(file, before, "SUMMARY");
  });

  it("the wait note comes once per 10 s waited, across parts", () => {
    const lines: string[] = [];
    const print = summaryProgressPrinter({ out: () => {}, err: (t) => lines.push(t), env: {}, cwd: "." }, "compact");
    for (const [part, waitedMs] of [["history", 3000], ["history", 10_400], ["turn-prefix", 10_600], ["history", 15_000], ["turn-prefix", 20_100]] as const) {
      print({ type: "wait", part, attempt: 1, waitedMs, budgetMs: 300_000 });
    }
    assert.deepEqual(lines, ["ase compact: note: waiting for the history summary: waited 10 s of 300 s (attempt 1)\n", "ase compact: note: waiting for the turn prefix summary: waited 20 s of 300 s (attempt 1)\n"]);
  });
});
