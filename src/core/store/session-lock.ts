import { randomBytes } from "node:crypto";
import { realpathSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname, join } from "node:path";
import { reason, writeFs } from "./write-fs";
import { CONFIG_CAP, readTextFile } from "../util/safe-open";

/** A lock older than this is a leftover (an append holds it for milliseconds). */
export const STALE_LOCK_MS = 30_000;
/** A lock with no owner in it (not one of ours, or from an older version): stale after this. */
const EMPTY_LOCK_MS = 2_000;

const FULL = new Set(["ENOSPC", "EDQUOT"]);

/** Another writer of ours holds the session: nothing was written. */
export class SessionBusyError extends Error {
  constructor(readonly path: string, detail: string) {
    super(`nothing written: ${path} is being written by another process (${detail}); try again`);
    this.name = "SessionBusyError";
  }
}

/** The lock file for a session: hidden, next to the real file (so every link to it shares it). */
export function lockPathFor(sessionPath: string): string {
  const real = realpathSync(sessionPath);
  return join(dirname(real), `.${basename(real)}.ase-lock`);
}

interface Owner {
  pid: number;
  host: string;
  since: number;
}

function readOwner(lock: string): Owner | undefined {
  try {
    const o = JSON.parse(readTextFile(lock, CONFIG_CAP)) as Owner;
    return typeof o.pid === "number" && typeof o.host === "string" ? o : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process of this id still runs (EPERM: it does, as another user's). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Why the lock at `lock` is a leftover, or undefined while its owner may still be writing. */
function staleness(lock: string): string | undefined {
  let age: number;
  try {
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return "gone";
  }
  const owner = readOwner(lock);
  if (!owner) return age > EMPTY_LOCK_MS ? `no owner recorded, ${Math.round(age / 1000)} s old` : undefined;
  if (owner.host === hostname() && !alive(owner.pid)) return `pid ${owner.pid} is gone`;
  if (age > STALE_LOCK_MS) return `${Math.round(age / 1000)} s old`;
  return undefined;
}

/**
 * Runs fn while holding the session's exclusive lock file. The lock is made whole before
 * it takes its name (owner written to a temp file, then hard-linked: link fails if the
 * name exists), so no one ever finds an empty lock. A lock held by a live writer refuses
 * at once: the caller's loaded state would be stale anyway. A leftover lock (dead pid,
 * too old) is removed once and taken.
 */
export function withSessionLock<T>(sessionPath: string, fn: () => T): T {
  const lock = lockPathFor(sessionPath);
  const w = writeFs();
  const tmp = `${lock}.${process.pid}.${randomBytes(4).toString("hex")}.ase-tmp`;
  const cannot = (err: unknown) => new Error(`nothing written: ${sessionPath}: cannot create the lock file ${lock}: ${reason(err)}`);
  const owner = Buffer.from(JSON.stringify({ pid: process.pid, host: hostname(), since: Date.now() } satisfies Owner));
  // On a full disk the owner cannot be written (a new name needs no data block): the lock
  // is then made empty by an O_EXCL create, and ages out sooner if left behind.
  let empty = false;
  try {
    const fd = w.openSync(tmp, "wx", 0o644);
    try {
      const n = w.writeSync(fd, owner, 0, owner.length);
      if (n !== owner.length) throw Object.assign(new Error("short write"), { code: "ENOSPC" });
    } finally {
      w.closeSync(fd);
    }
  } catch (err) {
    try {
      w.unlinkSync(tmp);
    } catch {
      // Not created.
    }
    if (!FULL.has((err as NodeJS.ErrnoException).code ?? "")) throw cannot(err);
    empty = true;
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        if (empty) w.closeSync(w.openSync(lock, "wx", 0o644));
        else w.linkSync(tmp, lock);
        break;
      } catch (err) {
        const e = err as NodeJS.ErrnoException;
        if (e.code !== "EEXIST") throw cannot(e);
        const stale = staleness(lock);
        if (!stale || attempt > 0) {
          const o = readOwner(lock);
          throw new SessionBusyError(sessionPath, o ? `pid ${o.pid} on ${o.host} since ${new Date(o.since).toISOString()}, lock ${lock}` : `lock ${lock}`);
        }
        try {
          w.unlinkSync(lock);
        } catch {
          // Someone else removed it first; the next link decides.
        }
      }
    }
  } finally {
    try {
      if (!empty) w.unlinkSync(tmp);
    } catch {
      // A hidden temp name of ours: cleaned with the other stale temp files.
    }
  }
  try {
    return fn();
  } finally {
    try {
      w.unlinkSync(lock);
    } catch {
      // Left behind, it is stale (our pid will be gone) and the next writer removes it.
    }
  }
}
