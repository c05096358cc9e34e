import * as fs from "node:fs";

/**
 * The file-system calls every writer of ours goes through (appends, forks, caches), so
 * tests can make any one of them fail or write short at any byte (test/helpers/faulty-fs.ts)
 * and check that a session file is never left torn.
 */
export interface WriteFs {
  openSync(path: string, flags: string | number, mode?: number): number;
  writeSync(fd: number, buf: Uint8Array, offset: number, length: number, position?: number | null): number;
  fsyncSync(fd: number): void;
  ftruncateSync(fd: number, len: number): void;
  fstatSync(fd: number): fs.Stats;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  linkSync(existing: string, created: string): void;
  unlinkSync(path: string): void;
}

const real: WriteFs = {
  openSync: (p, f, m) => fs.openSync(p, f, m),
  writeSync: (fd, b, o, l, pos) => fs.writeSync(fd, b, o, l, pos),
  fsyncSync: (fd) => fs.fsyncSync(fd),
  ftruncateSync: (fd, len) => fs.ftruncateSync(fd, len),
  fstatSync: (fd) => fs.fstatSync(fd),
  closeSync: (fd) => fs.closeSync(fd),
  renameSync: (a, b) => fs.renameSync(a, b),
  linkSync: (a, b) => fs.linkSync(a, b),
  unlinkSync: (p) => fs.unlinkSync(p),
};

let current: WriteFs = real;

/** The calls writers use now. */
export function writeFs(): WriteFs {
  return current;
}

/** Tests only: route writers through `fake` until the returned function is called. */
export function useWriteFs(fake: WriteFs): () => void {
  const before = current;
  current = fake;
  return () => {
    current = before;
  };
}

/** Writes all of buf at the descriptor's position; returns how much got out before a failure. */
export function writeAll(fd: number, buf: Uint8Array): { written: number; error?: NodeJS.ErrnoException } {
  const w = writeFs();
  let written = 0;
  try {
    while (written < buf.length) {
      const n = w.writeSync(fd, buf, written, buf.length - written);
      // A write that takes nothing and reports no error would loop for ever: name it.
      if (n <= 0) return { written, error: Object.assign(new Error("the write took 0 bytes"), { code: "EIO" }) };
      written += n;
    }
    return { written };
  } catch (err) {
    return { written, error: err as NodeJS.ErrnoException };
  }
}

/**
 * Writes all of `buf` at the descriptor's position and syncs it to disk. `failure` says
 * what went wrong in the words of our errors ("short write (6 of 763 bytes: ...)"), with
 * `synced` naming what a failed fsync means to the caller; `written` counts bytes written.
 */
export function writeAndSync(fd: number, buf: Uint8Array, syncFailed: (why: string) => string): { written: number; failure?: string } {
  const { written, error } = writeAll(fd, buf);
  if (error) return { written, failure: written ? `short write (${written} of ${buf.length} bytes: ${reason(error)})` : `cannot write: ${reason(error)}` };
  try {
    writeFs().fsyncSync(fd);
  } catch (err) {
    return { written, failure: syncFailed(reason(err)) };
  }
  return { written };
}

/** "ENOSPC: no space left on device" -> "no space left on device (ENOSPC)". */
export function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (!e || typeof e.message !== "string") return String(err);
  // Node's form: "CODE: text, syscall 'path'" (the path is left out for descriptors).
  const m = /^([A-Z0-9_]+): (.*?)(?:, \w+(?: '.*')?)?$/.exec(e.message);
  if (m) return `${m[2]} (${m[1]})`;
  return e.code && !e.message.includes(e.code) ? `${e.message} (${e.code})` : e.message;
}
