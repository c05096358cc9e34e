#!/usr/bin/env node
// Hand-made Codex rollouts in the older formats no 0.169.0 run can produce (docs/codex-format.md
// sections 3, 5, 6, 8): lines without `ordinal`, a fork that copied its parent's lines, a
// `thread_rolled_back` event; plus a .zst of two frames (a cut in the second keeps the first).
// Each gets a golden made here by the plain rule of section 5 (not by our reader).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const fix = join(repo, "test/fixtures/codex");
const out = join(fix, "handmade");
rmSync(out, { recursive: true, force: true });
const day = join(out, "home/sessions/2025/09/01");
mkdirSync(day, { recursive: true });
mkdirSync(join(out, "goldens"), { recursive: true });

const P = "0198f000-0000-7000-8000-00000000000a";
const F = "0198f000-0000-7000-8000-00000000000b";
const R = "0198f000-0000-7000-8000-00000000000c";
let clock = Date.parse("2025-09-01T10:00:00.000Z");
const ts = () => new Date((clock += 1000)).toISOString();
const meta = (id, extra = {}) => ({ timestamp: ts(), type: "session_meta", payload: { id, timestamp: new Date(clock).toISOString(), cwd: "/work/old-project", originator: "codex_cli_rs", cli_version: "0.40.0", source: "cli", model_provider: "openai", ...extra } });
const item = (payload) => ({ timestamp: ts(), type: "response_item", payload });
const text = (role, t, id) => item({ type: "message", ...(id ? { id } : {}), role, content: [{ type: role === "assistant" ? "output_text" : "input_text", text: t }] });
const ev = (payload) => ({ timestamp: ts(), type: "event_msg", payload });
let total = 0;
/** One turn in the old shape: turn_context, task_started, prompt, answer, events, a token_count. */
function turn(turnId, prompt, answer) {
  total += 1200;
  return [
    { timestamp: ts(), type: "turn_context", payload: { turn_id: turnId, cwd: "/work/old-project", model: "gpt-5-codex", approval_policy: "on-request" } },
    ev({ type: "task_started", turn_id: turnId, model_context_window: 272000 }),
    text("user", prompt),
    ev({ type: "user_message", message: prompt }),
    item({ type: "reasoning", id: `rs_${turnId}`, summary: [{ type: "summary_text", text: `thinking about ${prompt}` }], content: null, encrypted_content: "b3BhcXVl" }),
    text("assistant", answer, `msg_${turnId}`),
    ev({ type: "agent_message", message: answer }),
    ev({ type: "token_count", info: { total_token_usage: { input_tokens: total - 200, cached_input_tokens: 512, output_tokens: 200, reasoning_output_tokens: 50, total_tokens: total }, last_token_usage: { input_tokens: 1000, cached_input_tokens: 512, output_tokens: 200, reasoning_output_tokens: 50, total_tokens: 1200 }, model_context_window: 272000 }, rate_limits: null }),
    ev({ type: "task_complete", turn_id: turnId, last_agent_message: answer }),
  ];
}
const write = (name, lines) => writeFileSync(join(day, name), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");

/** Section 5 by the book: response_item payloads in order; a rollback drops the last n user turns. */
function expected(lines) {
  let history = [];
  for (const l of lines) {
    if (l.type === "response_item") history.push(l.payload);
    else if (l.type === "compacted" && Array.isArray(l.payload.replacement_history)) history = [...l.payload.replacement_history];
    else if (l.type === "event_msg" && l.payload.type === "thread_rolled_back") {
      const starts = history.map((h, k) => (h.type === "message" && h.role === "user" && !h.content[0].text.startsWith("<") ? k : -1)).filter((k) => k >= 0);
      const cut = starts[starts.length - l.payload.num_turns];
      if (cut !== undefined) history = history.slice(0, cut);
    }
  }
  return history;
}
const golden = (name, rollout, lines) => writeFileSync(join(out, "goldens", `${name}.json`), JSON.stringify({ rollout, input: expected(lines) }, null, 2) + "\n");

// The parent: two turns, old format.
const parent = [meta(P), text("user", "<environment_context>\n  <cwd>/work/old-project</cwd>\n</environment_context>"), ...turn("t1", "List the files", "There are three files."), ...turn("t2", "Read the README", "It says hello.")];
const parentName = `rollout-2025-09-01T10-00-00-${P}.jsonl`;
write(parentName, parent);
golden("old-parent", `handmade/home/sessions/2025/09/01/${parentName}`, parent);

// A fork that copied its parent's lines (new timestamps), then a turn of its own.
const copied = parent.slice(1).map((l) => ({ ...l, timestamp: ts() }));
const fork = [meta(F, { forked_from_id: P }), ...copied, ...turn("t3", "Now on the fork", "Fork answer.")];
const forkName = `rollout-2025-09-01T11-00-00-${F}.jsonl`;
write(forkName, fork);
golden("old-copied-fork", `handmade/home/sessions/2025/09/01/${forkName}`, fork);

// A rollback of the last turn, then another turn.
total = 0;
const rolled = [meta(R), ...turn("r1", "First question", "First answer."), ...turn("r2", "A question to take back", "An answer dropped."), ev({ type: "thread_rolled_back", num_turns: 1 }), ...turn("r3", "The question instead", "The answer kept.")];
const rolledName = `rollout-2025-09-01T12-00-00-${R}.jsonl`;
write(rolledName, rolled);
golden("old-rollback", `handmade/home/sessions/2025/09/01/${rolledName}`, rolled);

// The recorded main rollout as two zstd frames.
const recorded = join(fix, "home/sessions/2026/11/26");
const main = readdirSync(recorded).map((n) => join(recorded, n)).find((p) => readFileSync(p, "utf8").split("\n")[0].includes('"source":"exec"') && !readFileSync(p, "utf8").split("\n")[0].includes("forked_from_id") && readFileSync(p, "utf8").includes("TOOLS"));
const lines = readFileSync(main, "utf8").split("\n");
const half = Math.floor(lines.length / 2);
const frames = [lines.slice(0, half).join("\n") + "\n", lines.slice(half).join("\n")].map((t) => execFileSync("zstd", ["-3", "-q", "-c"], { input: t }));
mkdirSync(join(out, "two-frames"), { recursive: true });
writeFileSync(join(out, "two-frames", `${main.split("/").pop()}.zst`), Buffer.concat(frames));
console.log(`hand-made rollouts and goldens written under ${out}`);
