import { closeSync, ftruncateSync, openSync, writeSync } from "node:fs";
import type { Raw } from "./formats";

/** A line is an object (JSON-encoded here), text written as is, or raw bytes. */
export type Line = Raw | string | Buffer;

const encode = (l: Line): Buffer => (Buffer.isBuffer(l) ? l : Buffer.from(typeof l === "string" ? l : JSON.stringify(l), "utf8"));

/** Writes lines joined by "\n" (a final newline unless `torn`), in pieces so that big files never sit whole in memory twice. */
export function writeLines(file: string, lines: Iterable<Line>, opts: { torn?: boolean } = {}): void {
  const fd = openSync(file, "w");
  try {
    let first = true;
    for (const l of lines) {
      if (!first) writeSync(fd, "\n");
      writeSync(fd, encode(l));
      first = false;
    }
    if (!opts.torn) writeSync(fd, "\n");
  } finally {
    closeSync(fd);
  }
}

/** A placeholder a twist puts in an object; `expand` swaps the JSON string holding it for raw JSON text. */
export const HOLE = "\u0001HOLE\u0001";

/** The object's JSON with the placeholder string (quotes included) replaced by `raw`. */
export function expand(o: Raw, raw: string): string {
  const json = JSON.stringify(o);
  const hole = JSON.stringify(HOLE);
  const at = json.indexOf(hole);
  if (at < 0) throw new Error("expand: no placeholder in the object");
  return json.slice(0, at) + raw + json.slice(at + hole.length);
}

/**
 * Writes a file whose one line holds `bytes` of filler inside a JSON string: the object's
 * JSON with the placeholder string replaced by `"xxxx...."`, streamed a megabyte at a time.
 */
export function writeHugeLine(file: string, before: Line[], o: Raw, bytes: number, after: Line[]): void {
  const json = JSON.stringify(o);
  const hole = JSON.stringify(HOLE);
  const at = json.indexOf(hole);
  const fd = openSync(file, "w");
  try {
    for (const l of before) writeSync(fd, Buffer.concat([encode(l), Buffer.from("\n")]));
    writeSync(fd, `${json.slice(0, at)}"`);
    const chunk = Buffer.alloc(1024 * 1024, "x");
    for (let left = bytes; left > 0; left -= chunk.length) writeSync(fd, left >= chunk.length ? chunk : chunk.subarray(0, left));
    writeSync(fd, `"${json.slice(at + hole.length)}\n`);
    for (const l of after) writeSync(fd, Buffer.concat([encode(l), Buffer.from("\n")]));
  } finally {
    closeSync(fd);
  }
}

/** Lines, then a hole to `size` bytes (ftruncate: NULs that cost no disk). */
export function writeSparse(file: string, lines: Line[], size: number): void {
  writeLines(file, lines);
  const fd = openSync(file, "r+");
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}
