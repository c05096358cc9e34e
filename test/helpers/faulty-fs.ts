import * as fs from "node:fs";
import { useWriteFs, type WriteFs } from "../../src/core/store/write-fs";

export type FsOp = keyof WriteFs;

export interface FaultPlan {
  /** Which files the faults hit (by the path given to open, rename, link or unlink); all when left out. */
  match?: (path: string) => boolean;
  /**
   * Writes to matching files stop after this many bytes in all: the write that crosses
   * it writes up to it and reports a short count (as the kernel does on a full disk),
   * the next one fails with `writeError`.
   */
  writeLimit?: number;
  writeError?: string;
  /** These calls fail with the given code (on matching files) from their `after`+1-th call on. */
  fail?: Partial<Record<FsOp, string>>;
  after?: Partial<Record<FsOp, number>>;
  /** Runs before the real call (after the fault checks pass): e.g. another writer appends. */
  before?: Partial<Record<FsOp, (path: string) => void>>;
}

function errno(code: string, op: string, path: string): NodeJS.ErrnoException {
  const text: Record<string, string> = {
    ENOSPC: "no space left on device",
    EIO: "i/o error",
    EACCES: "permission denied",
    EROFS: "read-only file system",
    EDQUOT: "disk quota exceeded",
  };
  return Object.assign(new Error(`${code}: ${text[code] ?? "injected fault"}, ${op} '${path}'`), { code, syscall: op, path });
}

/** A WriteFs over the real one that injects the faults of `plan`; `log` lists the calls made. */
export function faultyFs(plan: FaultPlan): WriteFs & { log: string[]; written: number } {
  const paths = new Map<number, string>();
  const counts: Partial<Record<FsOp, number>> = {};
  const match = (p: string | undefined) => p !== undefined && (!plan.match || plan.match(p));
  const self = {
    log: [] as string[],
    written: 0,
  } as WriteFs & { log: string[]; written: number };
  const gate = (op: FsOp, path: string | undefined): void => {
    self.log.push(`${op} ${path ?? "?"}`);
    if (!match(path)) return;
    counts[op] = (counts[op] ?? 0) + 1;
    const code = plan.fail?.[op];
    if (code && counts[op] > (plan.after?.[op] ?? 0)) throw errno(code, op, path as string);
    plan.before?.[op]?.(path as string);
  };
  self.openSync = (p, flags, mode) => {
    gate("openSync", p);
    const fd = fs.openSync(p, flags, mode);
    paths.set(fd, p);
    return fd;
  };
  self.writeSync = (fd, buf, off, len, pos) => {
    const p = paths.get(fd);
    gate("writeSync", p);
    let n = len;
    if (match(p) && plan.writeLimit !== undefined) {
      const room = plan.writeLimit - self.written;
      if (room <= 0) throw errno(plan.writeError ?? "ENOSPC", "write", p as string);
      n = Math.min(len, room);
    }
    const done = fs.writeSync(fd, buf, off, n, pos);
    if (match(p)) self.written += done;
    return done;
  };
  self.fsyncSync = (fd) => {
    gate("fsyncSync", paths.get(fd));
    fs.fsyncSync(fd);
  };
  self.ftruncateSync = (fd, len) => {
    gate("ftruncateSync", paths.get(fd));
    fs.ftruncateSync(fd, len);
  };
  self.fstatSync = (fd) => {
    gate("fstatSync", paths.get(fd));
    return fs.fstatSync(fd);
  };
  self.closeSync = (fd) => {
    const p = paths.get(fd);
    paths.delete(fd);
    fs.closeSync(fd);
    gate("closeSync", p);
  };
  self.renameSync = (a, b) => {
    gate("renameSync", b);
    fs.renameSync(a, b);
  };
  self.linkSync = (a, b) => {
    gate("linkSync", b);
    fs.linkSync(a, b);
  };
  self.unlinkSync = (p) => {
    gate("unlinkSync", p);
    fs.unlinkSync(p);
  };
  return self;
}

/** Runs fn with writers going through a faulty fs; the real one is back afterwards. */
export async function withFaults<T>(plan: FaultPlan, fn: (f: ReturnType<typeof faultyFs>) => Promise<T> | T): Promise<T> {
  const f = faultyFs(plan);
  const restore = useWriteFs(f);
  try {
    return await fn(f);
  } finally {
    restore();
  }
}
