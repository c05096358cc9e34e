import { closeSync, openSync, readSync } from "node:fs";
import { clawdcodeFormat } from "./clawdcode/format";
import { claudeCodeFormat } from "./claude-code/format";
import { piFormat } from "./pi/format";
import { seed000Format } from "./seed-000/format";
import type { FirstLines, FormatLoadOptions, SessionFormat } from "./session-format";
import type { SessionReader } from "./session-reader";

/**
 * Every format the project reads, one line each. The first whose detect() accepts a
 * file reads it; pi, the oldest, reads what none claims, so a file that is no session
 * gets pi's exact reason (which line, what was expected).
 */
export const FORMATS: readonly SessionFormat[] = [
  piFormat,
  seed000Format,
  clawdcodeFormat,
  claudeCodeFormat,
];

const FALLBACK = piFormat;

/** Bytes read from a file's start to detect its format. */
const HEAD_BYTES = 64 * 1024;
/** Non-blank lines looked at. */
const HEAD_LINES = 5;

export function formatById(id: string): SessionFormat {
  const f = FORMATS.find((x) => x.id === id);
  if (!f) throw new Error(`no session format "${id}" (formats: ${FORMATS.map((x) => x.id).join(", ")})`);
  return f;
}

/** The format a loaded session was read as. */
export function formatOf(session: SessionReader): SessionFormat {
  return formatById(session.formatId);
}

/** The first non-blank lines of a text, each parsed (undefined where it does not parse). */
export function firstObjects(text: string, complete: boolean): unknown[] {
  const lines = text.split("\n");
  // The last piece of a head cut mid-line is no line.
  if (!complete) lines.pop();
  const out: unknown[] = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      out.push(undefined);
    }
    if (out.length >= HEAD_LINES) break;
  }
  return out;
}

/** Reads the head of a file for detection; unreadable files detect as nothing (the load says why). */
export function readFirstLines(path: string): FirstLines {
  let fd: number | undefined;
  try {
    fd = openSync(path, "r");
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return { path, objects: firstObjects(buf.toString("utf8", 0, n), n < buf.length) };
  } catch {
    return { path, objects: [] };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The format of a file: the first that claims it, else pi's. */
export function detectFormat(first: FirstLines): SessionFormat {
  return FORMATS.find((f) => f.detect(first)) ?? FALLBACK;
}

/** Loads a session file of any known format. */
export async function openSession(path: string, opts?: FormatLoadOptions): Promise<SessionReader> {
  return detectFormat(readFirstLines(path)).load(path, opts);
}
