import { randomUUID } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { rng } from "./generate";

/**
 * Synthetic Claude Code transcripts of a target size from the real ones (their
 * conversation lines, in order, again and again): every line gets a fresh uuid, the lines
 * of one API response keep sharing one fresh message.id, parents chain the lines, a
 * rewind (a new prompt beside an older one) happens now and then, and a compaction
 * (boundary + summary) lands every few MB, as the agent writes them.
 */
export interface ClaudeCodeGenerateOptions {
  sources: string[];
  targetBytes: number;
  out: string;
  seed?: number;
  /** Bytes between compactions. */
  compactEvery?: number;
}

const CONVERSATION = new Set(["user", "assistant", "system", "attachment", "progress"]);

/** The conversation lines of the real transcripts (main chain only: no sub-agent lines). */
function loadLines(sources: string[]): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const file of sources) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        const o = JSON.parse(line) as Record<string, unknown>;
        if (typeof o.uuid === "string" && CONVERSATION.has(String(o.type)) && !o.isSidechain && o.subtype !== "compact_boundary" && !o.isCompactSummary) out.push(o);
      } catch {
        // the sources are real transcripts; a bad line is just left out
      }
    }
  }
  if (!out.length) throw new Error(`no conversation lines in ${sources.join(", ")}`);
  return out;
}

export function generateClaudeCodeSession(opts: ClaudeCodeGenerateOptions): { bytes: number; lines: number; compactions: number; rewinds: number } {
  if (existsSync(opts.out) && statSync(opts.out).size >= opts.targetBytes) return { bytes: statSync(opts.out).size, lines: -1, compactions: -1, rewinds: -1 };
  const rand = rng(opts.seed ?? 7);
  const lines = loadLines(opts.sources);
  const sessionId = randomUUID();
  const fd = openSync(opts.out, "w");
  let bytes = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  const write = (o: Record<string, unknown>) => {
    const s = `${JSON.stringify(o)}\n`;
    pending.push(s);
    pendingBytes += s.length;
    bytes += Buffer.byteLength(s);
    if (pendingBytes > 4 << 20) flush();
  };
  const flush = () => {
    writeSync(fd, pending.join(""));
    pending = [];
    pendingBytes = 0;
  };
  let clock = Date.parse("2026-01-01T00:00:00.000Z");
  let parent: string | null = null;
  const prompts: string[] = [];
  const msgIds = new Map<string, string>();
  let count = 0;
  let compactions = 0;
  let rewinds = 0;
  let since = 0;
  const compactEvery = opts.compactEvery ?? 2 << 20;
  for (let k = 0; bytes < opts.targetBytes; k++) {
    const src = lines[k % lines.length];
    if (k % lines.length === 0) msgIds.clear();
    const uuid = randomUUID();
    clock += 1000;
    const line: Record<string, unknown> = { ...src, uuid, parentUuid: parent, sessionId, timestamp: new Date(clock).toISOString() };
    const message = src.message as Record<string, unknown> | undefined;
    if (message && typeof message.id === "string") {
      let id = msgIds.get(message.id);
      if (!id) {
        id = `msg_bench_${randomUUID().replace(/-/g, "")}`;
        msgIds.set(message.id, id);
      }
      line.message = { ...message, id };
    }
    // A rewind: the user's prompt goes beside one a few prompts back.
    if (src.type === "user" && typeof message?.content === "string" && prompts.length > 5 && rand() < 0.02) {
      line.parentUuid = prompts[prompts.length - 2 - Math.floor(rand() * 3)];
      rewinds++;
    }
    if (src.type === "user" && typeof message?.content === "string") prompts.push(uuid);
    if (prompts.length > 50) prompts.splice(0, prompts.length - 50);
    const before = bytes;
    write(line);
    since += bytes - before;
    parent = uuid;
    count++;
    if (since > compactEvery) {
      const boundary = randomUUID();
      const summary = randomUUID();
      clock += 1000;
      write({ parentUuid: null, logicalParentUuid: parent, isSidechain: false, userType: "external", cwd: src.cwd ?? "/bench/project", sessionId, version: src.version ?? "2.1.90", type: "system", subtype: "compact_boundary", content: "Conversation compacted", level: "info", uuid: boundary, timestamp: new Date(clock).toISOString(), compactMetadata: { trigger: "auto", preTokens: 160000 } });
      write({ parentUuid: boundary, isSidechain: false, userType: "external", cwd: src.cwd ?? "/bench/project", sessionId, version: src.version ?? "2.1.90", type: "user", message: { role: "user", content: "This session is being continued from a previous conversation that ran out of context. Summary: synthetic benchmark work." }, isCompactSummary: true, isVisibleInTranscriptOnly: true, uuid: summary, timestamp: new Date(clock).toISOString() });
      parent = summary;
      prompts.length = 0;
      compactions++;
      count += 2;
      since = 0;
    }
  }
  flush();
  closeSync(fd);
  return { bytes, lines: count, compactions, rewinds };
}
