import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Decompress } from "fzstd";
import { releaseNow } from "../../store/release-memory";
import { alive } from "../../store/session-lock";
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

/** Compressed bytes pushed at a time: Codex's rollouts shrink ~150 times, so this is up to ~10 MB of text. */
const SLICE = 64 * 1024;

/**
 * Streams the decompressed bytes of a `.jsonl.zst` rollout (Codex compresses cold rollouts,
 * zstd level 3: docs/codex-format.md section 1) to `onData`: one compressed slice and
 * fzstd's window in memory at a time, never the whole file. Between slices the thread
 * (the extension host) serves other work. A truncated or corrupt frame stops there: what
 * came before it was handed on, and `error` says why. fzstd (MIT, pure JavaScript, no
 * native build): Node 20 has no zstd of its own. `onData` must not keep the array; once
 * fzstd is done with it (it copies each block into its window after handing it on),
 * `settle` gets it: by default its memory is freed at once, a worker hands it on.
 * `onRead` hears how many compressed bytes were read.
 */
export async function streamZst(path: string, onData: (data: Uint8Array) => void, settle: (data: Uint8Array) => void = releaseNow, onRead?: (compressed: number, size: number) => void): Promise<{ bytes: number; size: number; error?: string }> {
  // Refuses a FIFO or device named *.zst (it would block the read for ever).
  closeSync(openRegular(path));
  const fh = await open(path, "r");
  let bytes = 0;
  let error: string | undefined;
  const size = (await fh.stat()).size;
  // Each block is an array of its own, which fzstd copies into its window after handing it
  // on: freed when the next one comes, not when V8 next collects (a 100 MB rollout makes
  // ~800 of 128 KB, which otherwise pile up to ~60 MB).
  let previous: Uint8Array | undefined;
  const z = new Decompress((data) => {
    if (previous) settle(previous);
    previous = undefined;
    if (!data.length) return;
    onData(data);
    bytes += data.length;
    previous = data;
  });
  try {
    let pos = 0;
    for (let done = false; !done; ) {
      const buf = Buffer.allocUnsafeSlow(CHUNK);
      const { bytesRead: n } = await fh.read(buf, 0, CHUNK, pos);
      pos += n;
      onRead?.(pos, size);
      const last = n === 0 || pos >= size;
      // fzstd keeps a reference to pushed data until the frame's block is done: each chunk is its own buffer.
      for (let at = 0; at < n || at === 0; at += SLICE) {
        try {
          z.push(buf.subarray(at, Math.min(n, at + SLICE)), last && at + SLICE >= n);
        } catch (err) {
          error = `${path}: the zstd data is corrupt or truncated after ${bytes} decompressed bytes (${(err as Error).message}); only what comes before is shown`;
          break;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      done = last || error !== undefined;
    }
    if (!error && size === 0) error = `${path}: the .zst file is empty`;
  } finally {
    if (previous) settle(previous);
    await fh.close();
  }
  return { bytes, size, ...(error ? { error } : {}) };
}

export function writeAll(fd: number, data: Uint8Array): void {
  for (let at = 0; at < data.length; ) at += writeSync(fd, data, at);
}

/** Our copies live in a folder of our own; each process names its own and removes them when it exits. */
function spillDir(): string {
  const dir = join(tmpdir(), `ase-codex-zst-${process.getuid?.() ?? "user"}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Copies this process made: removed at exit (a session reads its copy for as long as it is open). */
const mine = new Set<string>();
let sweptAndHooked = false;

/**
 * Once per process: copies left by processes that are gone (killed before their exit
 * handler ran) are removed, and this process's are removed when it exits.
 */
function sweepOnce(dir: string): void {
  if (sweptAndHooked) return;
  sweptAndHooked = true;
  process.on("exit", () => {
    for (const f of mine) rmSync(f, { force: true });
  });
  for (const name of readdirSync(dir)) {
    const pid = Number(/-(\d+)\.jsonl(\.tmp)?$/.exec(name)?.[1]);
    if (pid && pid !== process.pid && !alive(pid)) rmSync(join(dir, name), { force: true });
  }
}

/** Decompressions of this process, by file identity (an unchanged file is not decompressed again). */
const done = new Map<string, Promise<Decompressed>>();

/**
 * Decompresses a `.jsonl.zst` rollout to a plain temp file of this process's (a session
 * reads entries from it by offset while it is open), by streaming; removed when the
 * process exits. A truncated or corrupt frame keeps what came before it, and `error` says why.
 */
export function decompressRollout(path: string, make: (path: string, plain: string) => Promise<Decompressed> = copyOut): Promise<Decompressed> {
  const st = statSync(path);
  const key = `${path}\0${st.size}\0${st.mtimeMs}\0${st.ino}`;
  const known = done.get(key);
  if (known) {
    return known.then(
      (d) => {
        if (existsSync(d.plain)) return d;
        done.delete(key);
        return decompressRollout(path, make);
      },
      // The load that was making it stopped (closed, cancelled, its thread failed): this one
      // makes a copy of its own, on this thread (it streams nothing to this caller, who
      // waits for the whole copy), and reports its own error if that fails too.
      () => decompressRollout(path, copyOut),
    );
  }
  const made = make(path, copyName(key));
  done.set(key, made);
  made.catch(() => done.delete(key));
  return made;
}

/** Where this process puts the copy of a .zst (by its identity): removed when the process exits. */
function copyName(key: string): string {
  const dir = spillDir();
  sweepOnce(dir);
  const name = createHash("sha1").update(key).digest("hex").slice(0, 24);
  const plain = join(dir, `${name}-${process.pid}.jsonl`);
  mine.add(plain);
  return plain;
}

/** Decompresses on this thread to a temp file beside `plain`, renamed to it when whole. */
export async function copyOut(path: string, plain: string): Promise<Decompressed> {
  const temp = `${plain}.tmp`;
  mine.add(temp);
  const out = openSync(temp, "w", 0o600);
  let res: Awaited<ReturnType<typeof streamZst>>;
  try {
    // Written as fzstd hands each block on: nothing waits in memory.
    res = await streamZst(path, (data) => writeAll(out, data));
  } catch (err) {
    closeSync(out);
    await rm(temp, { force: true });
    throw err;
  }
  closeSync(out);
  await rename(temp, plain);
  return { plain, bytes: res.bytes, ...(res.error ? { error: res.error } : {}) };
}

/** Removes a plain copy (tests). */
export async function dropDecompressed(d: Decompressed): Promise<void> {
  rmSync(d.plain, { force: true });
  for (const [k, v] of done) if ((await v) === d) done.delete(k);
}
