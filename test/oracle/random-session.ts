import { rng } from "../../bench/generate";
import type { Pi, PiSessionManager } from "./pi";

// The seeded PRNG is the bench generator's (one copy in the tree).
export { rng };

/*
 * Seeded random sessions written through pi's own SessionManager, so every line is one
 * pi itself writes: every entry kind, many branches (leaf moves, new roots, branch
 * summaries empty or not, at the root too), compactions whose first kept entry lies on
 * the path or off it, labels set and cleared, model and thinking changes, custom
 * messages and entries, images, `!` and `!!` bash runs. Entry ids and timestamps are
 * pi's (random and the clock); the shape of the session is the seed's.
 */

type Rand = () => number;
const int = (r: Rand, n: number) => Math.floor(r() * n);
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[int(r, xs.length)];

const WORDS = ["alpha", "beta", "gamma", "fix", "the", "test", "ünïcödé", "日本語", "emoji 🎉", "<b>html</b>", "tab\there", "line\nbreak", "crlf\r\ninside", "\"quoted\"", "back\\slash"];
const FILES = ["/src/a.ts", "/src/b.ts", "/README.md", "/etc/x.conf", "/src/c.ts"];
const TOOLS = ["read", "write", "edit", "bash", "grep"];
const MODELS: ReadonlyArray<[string, string]> = [["anthropic", "claude-sonnet-4-5"], ["openai", "gpt-5"], ["google", "gemini-2.5-pro"]];
const LEVELS = ["off", "minimal", "low", "medium", "high"];
/** A 1x1 PNG: neither pi nor we look inside image data, but it is a real one. */
const IMAGE = { type: "image", data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", mimeType: "image/png" };

function text(r: Rand, max = 120): string {
  const n = 1 + int(r, max);
  const out: string[] = [];
  for (let k = 0; k < n; k++) out.push(pick(r, WORDS));
  return out.join(" ");
}

function usage(r: Rand): Record<string, unknown> {
  const input = int(r, 50_000);
  const output = int(r, 4000);
  const cacheRead = int(r, 3) ? int(r, 90_000) : 0;
  const cacheWrite = int(r, 4) ? 0 : int(r, 5000);
  // Some providers leave totalTokens out or at 0: pi then adds up the parts.
  const total = int(r, 5) === 0 ? 0 : input + output + cacheRead + cacheWrite;
  return { input, output, cacheRead, cacheWrite, totalTokens: total, cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 } };
}

interface Gen {
  r: Rand;
  sm: PiSessionManager;
  ids: string[];
  clock: number;
}

function userMessage(g: Gen): object {
  const { r } = g;
  const content = int(r, 4) === 0 ? text(r) : [{ type: "text", text: text(r) }, ...(int(r, 5) === 0 ? [IMAGE] : [])];
  return { role: "user", content, timestamp: g.clock++ };
}

function assistantMessage(g: Gen, calls: Array<{ id: string; name: string }>): object {
  const { r } = g;
  const [provider, model] = pick(r, MODELS);
  const content: object[] = [];
  if (int(r, 3) === 0) content.push({ type: "thinking", thinking: text(r, 60), thinkingSignature: "sig" });
  if (int(r, 4) !== 0 || !calls.length) content.push({ type: "text", text: text(r, 200) });
  for (const c of calls) {
    const args = c.name === "bash" ? { command: "ls -la" } : { path: pick(r, FILES), ...(c.name === "edit" ? { oldText: "a", newText: "b" } : {}) };
    content.push({ type: "toolCall", id: c.id, name: c.name, arguments: args });
  }
  const stop = calls.length ? "toolUse" : pick(r, ["stop", "stop", "stop", "length", "aborted", "error"]);
  const m: Record<string, unknown> = { role: "assistant", content, api: "anthropic-messages", provider, model, stopReason: stop, timestamp: g.clock++ };
  if (int(r, 8) !== 0) m.usage = usage(r);
  if (stop === "error") m.errorMessage = "overloaded";
  return m;
}

function turn(g: Gen): void {
  const { r, sm, ids } = g;
  ids.push(sm.appendMessage(userMessage(g)));
  for (let step = 0, steps = 1 + int(r, 3); step < steps; step++) {
    const calls = Array.from({ length: int(r, 3) }, (_, k) => ({ id: `call_${g.clock}_${k}`, name: pick(r, TOOLS) }));
    ids.push(sm.appendMessage(assistantMessage(g, calls)));
    for (const c of calls) {
      const content: object[] = [{ type: "text", text: text(r, 300) }];
      if (int(r, 6) === 0) content.push(IMAGE);
      const tr: Record<string, unknown> = { role: "toolResult", toolCallId: c.id, toolName: c.name, content, isError: int(r, 6) === 0, timestamp: g.clock++ };
      if (int(r, 3) === 0) tr.details = { diff: "-a\n+b", truncated: false };
      ids.push(sm.appendMessage(tr));
    }
    if (!calls.length) break;
  }
}

function bashRun(g: Gen): void {
  const { r } = g;
  const m: Record<string, unknown> = {
    role: "bashExecution",
    command: pick(r, ["ls", "npm test", "git status", "cat x | grep y"]),
    output: int(r, 4) === 0 ? "" : text(r, 100),
    exitCode: pick(r, [0, 0, 1, 127, null, undefined]),
    cancelled: int(r, 8) === 0,
    truncated: int(r, 5) === 0,
    timestamp: g.clock++,
  };
  if (m.truncated && int(r, 2)) m.fullOutputPath = "/tmp/pi-bash-output.log";
  // `!!` runs are kept in the session but never sent.
  if (int(r, 3) === 0) m.excludeFromContext = true;
  g.ids.push(g.sm.appendMessage(m));
}

/** Entries on the path from the root to the current leaf. */
function onPath(g: Gen): string[] {
  return g.sm.getBranch().map((e) => e.id);
}

function compaction(g: Gen): void {
  const { r, sm, ids } = g;
  const path = onPath(g);
  // On the path (the usual case) or anywhere else in the file (a kept entry off the path).
  const kept = int(r, 4) === 0 || !path.length ? pick(r, ids) : path[Math.max(0, path.length - 1 - int(r, 12))];
  const details = int(r, 5) === 0 ? undefined : { readFiles: [pick(r, FILES)], modifiedFiles: int(r, 2) ? [pick(r, FILES)] : [] };
  ids.push(sm.appendCompaction(`## Goal\n${text(r, 40)}`, kept, int(r, 200_000), details, int(r, 10) === 0 ? true : undefined));
  // Now and then a compaction lands between a tool call and its results.
  if (int(r, 6) === 0) {
    ids.push(sm.appendMessage({ role: "toolResult", toolCallId: "call_orphan", toolName: "read", content: [{ type: "text", text: text(r, 40) }], isError: false, timestamp: g.clock++ }));
  }
}

function step(g: Gen): void {
  const { r, sm, ids } = g;
  const roll = r();
  if (roll < 0.36) return turn(g);
  if (roll < 0.43) return bashRun(g);
  if (roll < 0.47) {
    const [provider, model] = pick(r, MODELS);
    ids.push(sm.appendModelChange(provider, model));
    return;
  }
  if (roll < 0.5) return void ids.push(sm.appendThinkingLevelChange(pick(r, LEVELS)));
  if (roll < 0.55) {
    const content = int(r, 2) ? text(r) : [{ type: "text", text: text(r) }, ...(int(r, 3) === 0 ? [IMAGE] : [])];
    ids.push(sm.appendCustomMessageEntry(pick(r, ["note", "ext-reminder"]), content, int(r, 2) === 0, int(r, 2) ? { source: "ext" } : undefined));
    return;
  }
  if (roll < 0.57) return void ids.push(sm.appendCustomEntry("ext-state", { n: int(r, 100) }));
  if (roll < 0.58) return void ids.push(sm.appendSessionInfo(int(r, 4) === 0 ? "" : text(r, 4)));
  if (roll < 0.64) {
    // Set, change or clear (undefined or "") a label on any entry.
    const label = int(r, 3) === 0 ? pick(r, [undefined, ""]) : `label ${int(r, 5)}`;
    ids.push(sm.appendLabelChange(pick(r, ids), label));
    return;
  }
  if (roll < 0.74) return sm.branch(pick(r, ids));
  if (roll < 0.75) return sm.resetLeaf();
  if (roll < 0.82) {
    const target = int(r, 8) === 0 ? null : pick(r, ids);
    const summary = int(r, 4) === 0 ? "" : text(r, 80);
    ids.push(sm.branchWithSummary(target, summary, summary ? { readFiles: [pick(r, FILES)], modifiedFiles: [] } : undefined));
    return;
  }
  if (roll < 0.9) return compaction(g);
  return turn(g);
}

export interface RandomSession {
  file: string;
  seed: number;
  /** keepRecentTokens to plan compactions with: small, so that short sessions get cut. */
  keepRecentTokens: number;
}

/** Writes a session of about `steps` actions into `dir` through pi's SessionManager. */
export function randomSession(pi: Pi, dir: string, seed: number, steps: number): RandomSession {
  const r = rng(seed);
  const sm = pi.SessionManager.create("/home/ana/proj", dir);
  const g: Gen = { r, sm, ids: [], clock: 1_760_000_000_000 + seed * 1000 };
  // pi writes the file only once it holds an assistant message (every turn has one).
  turn(g);
  for (let k = 0; k < steps; k++) step(g);
  const file = sm.getSessionFile();
  if (!file) throw new Error(`seed ${seed}: pi wrote no file`);
  return { file, seed, keepRecentTokens: pick(r, [20, 60, 150, 400, 1500]) };
}
