import { closeSync, fstatSync } from "node:fs";
import { FirstLineTooLongError, firstLineEnd, linesEnd, readFrom, readHead } from "../store/head-lines";
import { NotRegularFileError, openRegular } from "../util/safe-open";
import { clawdcodeFormat } from "./clawdcode/format";
import { claudeCodeFormat } from "./claude-code/format";
import { codexFormat } from "./codex/format";
import { geminiFormat } from "./gemini-cli/format";
import { opencodeFormat } from "./opencode/format";
import { piFormat } from "./pi/format";
import { seed000Format } from "./seed-000/format";
import { formatById, registerFormats } from "../session/format-table";
import type { FirstLines, FormatLoadOptions, SessionFormat } from "../session/session-format";
import type { SessionReader } from "../session/session-reader";

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
  codexFormat,
  geminiFormat,
  opencodeFormat,
];

registerFormats(FORMATS);

const FALLBACK = piFormat;

/** Non-blank lines looked at. */
const HEAD_LINES = 5;

export { formatById };

/** The format a loaded session was read as (the session carries it: `session.format`). */
export function formatOf(session: SessionReader): SessionFormat {
  return session.format;
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

/**
 * Reads the first lines of a file, each whole (a first line of megabytes included), for
 * detection. A file that is no regular file or whose first line passes the cap is refused
 * here, saying so; other unreadable files detect as nothing (the load says why).
 */
export function readFirstLines(path: string): FirstLines {
  let fd: number | undefined;
  try {
    fd = openRegular(path);
    return headObjects(path, fd, fstatSync(fd).size);
  } catch (err) {
    if (err instanceof NotRegularFileError || err instanceof FirstLineTooLongError) throw err;
    return { path, objects: [] };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The first lines of an open file as detection sees them; `have` is what the caller read
 * from its start already (search's first chunk). Throws FirstLineTooLongError past the cap.
 */
export function headObjects(path: string, fd: number, size: number, have?: Buffer): FirstLines {
  let head: ReturnType<typeof readHead>;
  try {
    head = readHead(fd, path, size, { lines: HEAD_LINES, have });
  } catch (err) {
    if (!(err instanceof FirstLineTooLongError)) throw err;
    // A first line past the cap (a pasted prompt of hundreds of MB) is not read: the lines
    // after it say what the file is (a pi header must be first, so pi's files are refused).
    const from = firstLineEnd(fd, size);
    const rest = readFrom(fd, from, size);
    const end = linesEnd(rest.bytes, HEAD_LINES - 1);
    const objects = firstObjects(rest.bytes.toString("utf8", 0, end ?? rest.bytes.length), end !== undefined || rest.whole);
    if (!objects.some((o) => o !== undefined)) throw err;
    return { path, objects: [undefined, ...objects] };
  }
  const end = linesEnd(head.bytes, HEAD_LINES);
  return { path, objects: firstObjects(head.bytes.toString("utf8", 0, end ?? head.bytes.length), end !== undefined || head.whole) };
}

/** The format of a file: the first that claims it, else pi's. */
export function detectFormat(first: FirstLines): SessionFormat {
  return FORMATS.find((f) => f.detect(first)) ?? FALLBACK;
}

/** The format that reads a file: the one whose addresses it is (a database's sessions), else the first that claims its first lines. */
export function formatOfFile(path: string): SessionFormat {
  return FORMATS.find((f) => f.addresses?.(path)) ?? detectFormat(readFirstLines(path));
}

/** Loads a session file of any known format. */
export async function openSession(path: string, opts?: FormatLoadOptions): Promise<SessionReader> {
  return formatOfFile(path).load(path, opts);
}

/** The files a session is stored in, which a live view watches: its file, or what its format's address names. */
export function storeFilesOf(path: string): string[] {
  return FORMATS.find((f) => f.addresses?.(path))?.storeFiles?.(path) ?? [path];
}
