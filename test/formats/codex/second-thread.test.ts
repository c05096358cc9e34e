import { strict as assert } from "node:assert";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CodexFileSession } from "../../../src/core/formats/codex/session";
import { CodexIndexHooks } from "../../../src/core/formats/codex/index-hooks";
import { IndexBuilder } from "../../../src/core/store/index-builder";
import { adoptSecond } from "../../../src/core/store/index-file";
import { indexRange, scanInto } from "../../../src/core/store/index-range";
import { indexWorkerSource, planSplit } from "../../../src/core/store/range-worker";
import { generateCodexRollout } from "../../../bench/generate-codex";
import { record } from "../../helpers/index-picture";
import { tempDir } from "../../helpers/session-builder";
import { recorded } from "./helpers";

const T = (s: number) => `2025-09-01T10:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}.000Z`;
const ev = (s: number, payload: Record<string, unknown>) => ({ timestamp: T(s), type: "event_msg", payload });
const item = (s: number, payload: Record<string, unknown>) => ({ timestamp: T(s), type: "response_item", payload });
const usage = (input: number, output: number) => ({ input_tokens: input, cached_input_tokens: Math.floor(input / 2), output_tokens: output, total_tokens: input + output });

/**
 * An older build's rollout (no ordinals, no token_usage_record): turns that change model
 * and window, token_count lines that repeat their total (no new response) and that move
 * it, lines of no turn before the first, a turn without a prompt.
 */
function oldTurns(n: number): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [{ timestamp: T(0), type: "session_meta", payload: { id: "0198f000-0000-7000-8000-0000000000ee", cwd: "/work/old", cli_version: "0.40.0", source: "cli" } }];
  out.push(item(1, { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>x</environment_context>" }] }));
  let total = 0;
  for (let k = 0; k < n; k++) {
    const s = 10 * k + 2;
    out.push({ timestamp: T(s), type: "turn_context", payload: { turn_id: `t${k}`, cwd: "/work/old", model: k % 3 ? "gpt-5-codex" : "gpt-5" } });
    out.push(ev(s + 1, { type: "task_started", turn_id: `t${k}`, model_context_window: k % 4 < 2 ? 272000 : 400000 }));
    if (k % 5 !== 4) out.push(item(s + 2, { type: "message", role: "user", content: [{ type: "input_text", text: `question ${k}` }] }));
    out.push(item(s + 3, { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["cat", `/work/old/f${k}.ts`] }), call_id: `c${k}` }));
    out.push(item(s + 4, { type: "function_call_output", call_id: `c${k}`, output: `contents ${k}` }));
    out.push(item(s + 5, { type: "message", role: "assistant", content: [{ type: "output_text", text: `answer ${k}` }] }));
    total += 100 + k;
    out.push(ev(s + 6, { type: "token_count", info: { total_token_usage: usage(total, k), last_token_usage: usage(100 + k, k), model_context_window: 272000 } }));
    // Written again without a new response: never counted twice.
    if (k % 2) out.push(ev(s + 7, { type: "token_count", info: { total_token_usage: usage(total, k), last_token_usage: usage(100 + k, k) } }));
    out.push(ev(s + 8, { type: "task_complete", turn_id: `t${k}` }));
  }
  return out;
}

/** Lines read after the load (the agent writing on): they use the state both halves left. */
function onward(ordinals: boolean, from: number): Array<Record<string, unknown>> {
  const o = (k: number) => (ordinals ? { ordinal: from + k } : {});
  return [
    { timestamp: T(3000), ...o(0), type: "turn_context", payload: { turn_id: "late", cwd: "/work/old" } },
    { timestamp: T(3001), ...o(1), type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text: "one more" }] } },
    { timestamp: T(3002), ...o(2), type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "sure" }] } },
    { timestamp: T(3003), ...o(3), type: "event_msg", payload: { type: "token_count", info: { total_token_usage: usage(999_999, 1), last_token_usage: usage(5, 1), model_context_window: 128000 } } },
    { timestamp: T(3004), ...o(4), type: "token_usage_record", payload: { response_id: "resp_late", usage: usage(7, 2) } },
    { timestamp: T(3005), ...o(5), type: "event_msg", payload: { type: "thread_rolled_back", num_turns: 3 } },
  ];
}

const jsonl = (lines: Array<Record<string, unknown>>) => lines.map((l) => `${JSON.stringify(l)}\n`).join("");

/** Everything a load keeps per entry, the hooks' per-entry facts included. */
function picture(b: IndexBuilder, hooks: CodexIndexHooks) {
  return { records: b.metas.map(record), problems: b.problems, turnOf: [...hooks.turnOf], responseOf: [...hooks.responseOf], windows: hooks.windows };
}

/** One pass over the whole file. */
async function onePass(path: string) {
  const hooks = new CodexIndexHooks();
  const b = new IndexBuilder(path, hooks);
  await scanInto(path, b, { fromOffset: 0, toOffset: statSync(path).size });
  return picture(b, hooks);
}

/**
 * The two-thread load split at `split` (as a worker would read bytes split..end with fresh
 * hooks), then the lines from `end` on read by the first half's hooks, as a refresh reads them.
 */
async function twoParts(path: string, split: number, end: number) {
  const hooks = new CodexIndexHooks();
  const b = new IndexBuilder(path, hooks);
  const { scan } = await scanInto(path, b, { fromOffset: 0, toOffset: split });
  const second = await indexRange({ path, from: split, to: end, formatId: "codex", header: b.header, version: 0 }, new CodexIndexHooks());
  assert.ok(second.hooks && "state" in second.hooks, `split at ${split}: the range asked for one pass`);
  adoptSecond(b, second, scan.nextLine - 1);
  await scanInto(path, b, { fromOffset: second.endOffset, fromLine: scan.nextLine + second.lines, toOffset: statSync(path).size });
  return picture(b, hooks);
}

/** Line starts of a file past its first line. */
function lineStarts(text: string): number[] {
  const out: number[] = [];
  for (let k = text.indexOf("\n"); k >= 0 && k + 1 < text.length; k = text.indexOf("\n", k + 1)) out.push(Buffer.byteLength(text.slice(0, k + 1)));
  return out;
}

/** At every line of `body`, the split load equals the one-pass load, the lines read after it included. */
async function sameAtEverySplit(body: string, after: string): Promise<number> {
  const path = join(tempDir(), "rollout-2025-09-01T10-00-00-0198f000-0000-7000-8000-0000000000ee.jsonl");
  writeFileSync(path, body + after);
  const whole = await onePass(path);
  const end = Buffer.byteLength(body);
  const splits = lineStarts(body);
  for (const split of splits) assert.deepEqual(await twoParts(path, split, end), whole, `split at byte ${split}`);
  return splits.length;
}

describe("Codex rollouts indexed on two threads", () => {
  it("an older build's rollout split at any line gives the one-pass index: turns, models, windows, token_count usage, a later rollback", async () => {
    const body = jsonl(oldTurns(12));
    const n = await sameAtEverySplit(body, jsonl(onward(false, 0)));
    assert.ok(n > 100);
  });

  it("a 0.169.0 rollout split at any line gives the one-pass index: usage records, responses, sub-turn events", async function () {
    this.timeout(600_000);
    const { main, compact } = recorded();
    const out = join(tempDir(), "gen.jsonl");
    const { lines } = generateCodexRollout({ sources: [main, compact], targetBytes: 150_000, out });
    const n = await sameAtEverySplit(readFileSync(out, "utf8"), jsonl(onward(true, lines)));
    assert.ok(n > 100);
  });

  it("loads a large rollout on two threads with the one-thread result; a rollback in the second half is read on one thread", async function () {
    this.timeout(300_000);
    assert.ok(indexWorkerSource(), "the index worker source was not bundled into the tests");
    const dir = tempDir();
    const plain = join(dir, "rollout-2025-09-01T10-00-00-0198f000-0000-7000-8000-0000000000ee.jsonl");
    writeFileSync(plain, jsonl(oldTurns(400)));
    const withRollback = join(dir, "rollout-2025-09-01T10-00-00-0198f000-0000-7000-8000-0000000000ef.jsonl");
    writeFileSync(withRollback, jsonl([...oldTurns(400), ev(9000, { type: "thread_rolled_back", num_turns: 350 })]));
    for (const [file, threads] of [[plain, 2], [withRollback, 1]] as const) {
      const one = await CodexFileSession.open(file, { secondThread: false });
      const two = await CodexFileSession.open(file, { secondThread: true });
      assert.ok(planSplit(file, statSync(file).size, 0, one.hooks), "a Codex rollout can be split");
      assert.equal(two.threads, threads);
      assert.equal(two.workerFailure, undefined);
      const pic = (s: CodexFileSession) => ({ records: s.metas.map(record), problems: s.problems, leaves: s.tree.leaves(), turnOf: [...s.hooks.turnOf], responseOf: [...s.hooks.responseOf], windows: s.hooks.windows });
      assert.deepEqual(pic(two), pic(one));
    }
  });
});
