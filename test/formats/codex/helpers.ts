import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/session-builder";

export const THREAD = "01a2166c-0000-7000-8000-000000000001";

/** A Codex home in a temp dir with one day folder; returns the home and the day folder. */
export function tempHome(): { home: string; day: string } {
  const home = tempDir();
  const day = join(home, "sessions", "2026", "11", "26");
  mkdirSync(day, { recursive: true });
  return { home, day };
}

export const meta = (id = THREAD, extra: Record<string, unknown> = {}) => ({ timestamp: "2026-11-26T05:00:00.000Z", ordinal: 0, type: "session_meta", payload: { id, session_id: id, timestamp: "2026-11-26T05:00:00.000Z", cwd: "/work/p", cli_version: "0.169.0", source: "exec", ...extra } });

export const msg = (ordinal: number, role: string, text: string) => ({
  timestamp: "2026-11-26T05:00:01.000Z",
  ordinal,
  type: "response_item",
  payload: { type: "message", id: `msg_${ordinal}`, role, content: [{ type: role === "assistant" ? "output_text" : "input_text", text }], internal_chat_message_metadata_passthrough: { turn_id: "t" } },
});

/** Writes lines (objects, or raw strings written as they are) as a rollout for `id`; returns its path. */
export function writeRollout(dir: string, id: string, lines: Array<Record<string, unknown> | string>): string {
  const path = join(dir, `rollout-2026-11-26T05-00-00-${id}.jsonl`);
  writeFileSync(path, lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n") + "\n");
  return path;
}

/** The recorded rollouts by what they hold (ids change with every `npm run record:codex`). */
export function recorded(): { main: string; compact: string; fork: string; dir: string } {
  const dir = join(process.cwd(), "test", "fixtures", "codex", "home", "sessions", "2026", "11", "26");
  const files = readdirSync(dir).map((n) => join(dir, n));
  const head = (f: string) => readFileSync(f, "utf8").split("\n", 1)[0];
  const fork = files.find((f) => head(f).includes('"history_base"')) as string;
  const compact = files.find((f) => f !== fork && readFileSync(f, "utf8").includes('"type":"compacted"')) as string;
  const main = files.find((f) => f !== fork && f !== compact) as string;
  return { main, compact, fork, dir };
}

/**
 * zstd frames of raw (stored) blocks: what a compressor writes for data it cannot shrink,
 * and frames fzstd reads like any other. Lets a test make a .zst of any size without a
 * compressor; `frameBytes` cuts the data into several frames (a .zst may hold many).
 */
export function rawZst(data: Buffer, frameBytes = data.length, opts: { declareSize?: boolean } = {}): Buffer {
  const BLOCK = 100_000;
  const parts: Buffer[] = [];
  for (let from = 0; from < data.length || from === 0; from += frameBytes) {
    const frame = data.subarray(from, Math.min(data.length, from + frameBytes));
    // Magic, then a frame header: no checksum; a window of 2^(10+7) bytes; no content size,
    // or (declareSize, as the zstd command writes) the frame's size in a 4-byte field.
    if (opts.declareSize) {
      const fcs = Buffer.alloc(4);
      fcs.writeUInt32LE(frame.length);
      parts.push(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x80, 7 << 3]), fcs);
    } else parts.push(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3]));
    for (let at = 0; at < frame.length; at += BLOCK) {
      const size = Math.min(BLOCK, frame.length - at);
      const last = at + size >= frame.length ? 1 : 0;
      const h = (size << 3) | last;
      parts.push(Buffer.from([h & 255, (h >> 8) & 255, (h >> 16) & 255]), frame.subarray(at, at + size));
    }
    if (!data.length) break;
  }
  return Buffer.concat(parts);
}
