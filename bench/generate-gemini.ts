import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { rng } from "./generate";

/**
 * Synthetic Gemini CLI sessions of a target size from the recorded fixtures
 * (test/fixtures/gemini-cli): their turns, again and again, written as the CLI writes
 * them (docs/gemini-cli-format.md sections 2-4): a model message first empty then again
 * with its tool calls, `$set` updates after each message, and now and then a resume (a
 * metadata line and a full `$set.messages` checkpoint), a compression (a checkpoint that
 * starts with a state snapshot) or a /rewind (`$rewindTo` and the checkpoint of what is
 * left). Tool outputs get filler text of varied length, as file reads and command output do.
 */
export interface GeminiGenerateOptions {
  fixtures: string;
  targetBytes: number;
  out: string;
  seed?: number;
  sessionId?: string;
  projectRoot?: string;
  /** Turns between resumes, compressions and rewinds (0: never). */
  resumeEvery?: number;
  compressEvery?: number;
  rewindEvery?: number;
}

type Rec = Record<string, unknown>;
const isObject = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

/** The recorded main sessions' message lines, cut into turns at each prompt a person typed. */
function loadTurns(fixtures: string): { turns: Rec[][]; context: Rec } {
  const turns: Rec[][] = [];
  let context: Rec | undefined;
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (/^session-.*\.jsonl$/.test(e.name)) files.push(join(d, e.name));
    }
  };
  walk(fixtures);
  for (const file of files.sort()) {
    let turn: Rec[] | undefined;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const o = JSON.parse(line) as Rec;
      if (isObject(o.$set) && Array.isArray(o.$set.messages)) context ??= (o.$set.messages as Rec[]).find((m) => JSON.stringify(m.content).includes("<session_context>"));
      if (typeof o.id !== "string") continue;
      const text = JSON.stringify(o.content ?? "");
      if (o.type === "user" && !text.includes("functionResponse") && !text.includes("<session_context>")) {
        turn = [];
        turns.push(turn);
      }
      turn?.push(o);
    }
  }
  if (!turns.length || !context) throw new Error(`no recorded Gemini CLI turns in ${fixtures}`);
  return { turns, context };
}

const WORDS = "the of and to in is that for it as with was on be by this are from at or an which file function return value const line test error data session context token model user result".split(" ");

/** Copies a record with fresh ids (suffix `-n`) and `output` strings padded by `pad`. */
function remap(v: unknown, n: number, pad: (key: string) => string): unknown {
  if (Array.isArray(v)) return v.map((x) => remap(x, n, pad));
  if (!isObject(v)) return v;
  const out: Rec = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === "id" && typeof x === "string") out[k] = `${x}-${n}`;
    else if (k === "output" && typeof x === "string") out[k] = x + pad(`${JSON.stringify(v).length}`);
    else out[k] = remap(x, n, pad);
  }
  return out;
}

export function generateGeminiSession(opts: GeminiGenerateOptions): { bytes: number; lines: number; checkpoints: number; rewinds: number; compressions: number } {
  if (existsSync(opts.out) && statSync(opts.out).size >= opts.targetBytes) return { bytes: statSync(opts.out).size, lines: -1, checkpoints: -1, rewinds: -1, compressions: -1 };
  const rand = rng(opts.seed ?? 11);
  const { turns, context } = loadTurns(opts.fixtures);
  const root = opts.projectRoot ?? "/bench/gemini-project";
  const sessionId = opts.sessionId ?? `9e${String(opts.seed ?? 11).padStart(6, "0")}-0000-4000-8000-000000000000`;
  const resumeEvery = opts.resumeEvery ?? 40;
  const compressEvery = opts.compressEvery ?? 150;
  const rewindEvery = opts.rewindEvery ?? 60;
  const fd = openSync(opts.out, "w");
  let bytes = 0;
  let lines = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  const flush = () => {
    writeSync(fd, pending.join(""));
    pending = [];
    pendingBytes = 0;
  };
  const write = (o: Rec) => {
    const s = `${JSON.stringify(o)}\n`;
    pending.push(s);
    pendingBytes += s.length;
    bytes += Buffer.byteLength(s);
    lines++;
    if (pendingBytes > 4 << 20) flush();
  };
  // Filler of one tool output: the same for the model's toolCalls result and the user's
  // functionResponse copy of it, as the CLI stores the one output twice.
  const fillers = new Map<string, string>();
  const pad = (key: string) => {
    let f = fillers.get(key);
    if (f === undefined) {
      const words: string[] = [];
      const n = 100 + Math.floor(rand() * rand() * 3000);
      for (let k = 0; k < n; k++) words.push(WORDS[Math.floor(rand() * WORDS.length)]);
      f = `\n${words.join(" ")}`;
      if (fillers.size > 64) fillers.clear();
      fillers.set(key, f);
    }
    return f;
  };
  const meta = () => ({ sessionId, projectHash: createHash("sha256").update(root).digest("hex"), startTime: "2026-11-01T09:00:00.000Z", lastUpdated: "2026-11-01T09:00:00.000Z", kind: "main" });
  const current = new Map<string, Rec>();
  const ctx = { ...context };
  write(meta());
  write({ $set: { messages: [ctx] } });
  current.set(String(ctx.id), ctx);
  let checkpoints = 1;
  let rewinds = 0;
  let compressions = 0;
  let lastPrompt: string | undefined;
  for (let n = 0; bytes < opts.targetBytes; n++) {
    const turn = turns[n % turns.length];
    const stamp = new Date(Date.UTC(2026, 10, 1, 9) + n * 60_000).toISOString();
    for (const raw of turn) {
      const m: Rec = { ...(remap(raw, n, pad) as Rec), timestamp: stamp };
      if (m.type === "user" && !JSON.stringify(m.content).includes("functionResponse")) lastPrompt = String(m.id);
      // A model message is written while it streams, then again once its calls are known.
      if (m.type === "gemini" && Array.isArray(m.toolCalls) && m.toolCalls.length) write({ ...m, content: "", toolCalls: undefined });
      write(m);
      write({ $set: { lastUpdated: stamp } });
      current.set(String(m.id), m);
    }
    if (rewindEvery && n % rewindEvery === rewindEvery - 1 && lastPrompt && current.has(lastPrompt)) {
      // /rewind to the last prompt: it and what followed are dropped; the checkpoint of what
      // is left has no session context (recorded `rewind` fixture).
      write({ $rewindTo: lastPrompt });
      const keep = [...current.keys()];
      for (const id of keep.slice(keep.indexOf(lastPrompt))) current.delete(id);
      write({ $set: { messages: [...current.values()].filter((x) => x !== ctx) } });
      rewinds++;
      checkpoints++;
    } else if (compressEvery && n % compressEvery === compressEvery - 1) {
      const kept = [...current.values()].slice(-6);
      const snapshot = { id: `snapshot-${n}`, timestamp: stamp, type: "user", content: [{ text: `<state_snapshot>\n<overall_goal>Turn ${n} of the bench session.</overall_goal>\n</state_snapshot>` }] };
      const ack = { id: `ack-${n}`, timestamp: stamp, type: "gemini", content: [{ text: "Got it. Thanks for the additional context!" }] };
      current.clear();
      for (const x of [ctx, snapshot, ack, ...kept]) current.set(String(x.id), x);
      write({ $set: { messages: [...current.values()] } });
      compressions++;
      checkpoints++;
    } else if (resumeEvery && n % resumeEvery === resumeEvery - 1) {
      // A resume: the new process's metadata line and the whole history again.
      write({ ...meta(), lastUpdated: stamp });
      write({ $set: { sessionId } });
      write({ $set: { messages: [...current.values()] } });
      checkpoints++;
    }
  }
  flush();
  closeSync(fd);
  return { bytes, lines, checkpoints, rewinds, compressions };
}
