import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Decompress } from "fzstd";
import { openRegular } from "../../util/safe-open";

/** Compressed bytes read per step: with fzstd's window this bounds the memory, not the file size. */
const CHUNK = 1 << 20;

/** A rollout decompressed to a plain file of ours, and how far the zstd data could be read. */
export interface Decompressed {
  /** The plain copy (in our temp folder; the .zst is never written). */
  plain: string;
  /** Decompressed bytes written. */
  bytes: number;
  /** Why the data stops early (a truncated or corrupt frame), naming the file; undefined when whole. */
  error?: string;
}

function spillDir(): string {
  const dir = join(tmpdir(), `ase-codex-zst-${process.getuid?.() ?? "user"}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Results of earlier decompressions in this process, by file identity (an unchanged file is not decompressed again). */
const done = new Map<string, Decompressed>();

/**
 * Decompresses a `.jsonl.zst` rollout (Codex compresses cold rollouts, zstd level 3:
 * docs/codex-format.md section 1) to a plain temp file by streaming: one compressed chunk
 * and fzstd's window in memory at a time, never the whole file. A truncated or corrupt
 * frame stops there: what was decompressed before it is kept, and `error` says why.
 * fzstd (MIT, pure JavaScript, no native build): Node 20 has no zstd of its own.
 */
export function decompressRollout(path: string): Decompressed {
  const fd = openRegular(path);
  try {
    const st = fstatSync(fd);
    const key = `${path}\0${st.size}\0${st.mtimeMs}\0${st.ino}`;
    const known = done.get(key);
    if (known && existsSync(known.plain)) return known;
    const name = createHash("sha1").update(key).digest("hex").slice(0, 24);
    const plain = join(spillDir(), `${name}.jsonl`);
    const temp = `${plain}.${process.pid}.tmp`;
    const out = openSync(temp, "w", 0o600);
    let bytes = 0;
    let error: string | undefined;
    try {
      const z = new Decompress((data) => {
        writeSync(out, data);
        bytes += data.length;
      });
      const buf = Buffer.allocUnsafe(CHUNK);
      let pos = 0;
      try {
        for (;;) {
          const n = readSync(fd, buf, 0, CHUNK, pos);
          pos += n;
          const last = n === 0 || pos >= st.size;
          // fzstd keeps a reference to pushed data until the frame's block is done: hand it a copy.
          z.push(n ? new Uint8Array(buf.subarray(0, n)) : new Uint8Array(0), last);
          if (last) break;
        }
      } catch (err) {
        error = `${path}: the zstd data is corrupt or truncated after ${bytes} decompressed bytes (${(err as Error).message}); only what comes before is shown`;
      }
      if (!error && st.size === 0) error = `${path}: the .zst file is empty`;
    } finally {
      closeSync(out);
    }
    renameSync(temp, plain);
    const result: Decompressed = { plain, bytes, ...(error ? { error } : {}) };
    done.set(key, result);
    return result;
  } finally {
    closeSync(fd);
  }
}

/** Removes a plain copy (tests). */
export function dropDecompressed(d: Decompressed): void {
  rmSync(d.plain, { force: true });
  for (const [k, v] of done) if (v === d) done.delete(k);
}
