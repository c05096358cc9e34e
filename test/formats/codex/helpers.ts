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
