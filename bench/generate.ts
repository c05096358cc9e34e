import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from "node:fs";

/**
 * Synthetic pi sessions of a target size built from the real ones: every entry gets a
 * fresh id, the conversation branches now and then (a new child of an entry a few steps
 * back), and a compaction lands every few MB so that contexts stay realistic in size.
 */
export interface GenerateOptions {
  sources: string[];
  targetBytes: number;
  out: string;
  /** Chance that an entry starts a branch instead of continuing the current leaf. */
  branchRate?: number;
  /** Bytes between compactions. */
  compactEvery?: number;
  seed?: number;
}

/** A small seeded PRNG (mulberry32): the same seed, the same sessions. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Message payloads of the real sessions, in order (headers and non-messages dropped). */
function loadMessages(sources: string[]): unknown[] {
  const out: unknown[] = [];
  for (const file of sources) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      try {
        const o = JSON.parse(line) as { type?: string; message?: unknown };
        if (o.type === "message") out.push(o.message);
      } catch {
        // the sources are clean; a bad line would just be left out
      }
    }
  }
  return out;
}

export function generateSession(opts: GenerateOptions): { bytes: number; entries: number; compactions: number; branches: number } {
  if (existsSync(opts.out) && statSync(opts.out).size >= opts.targetBytes) {
    return { bytes: statSync(opts.out).size, entries: -1, compactions: -1, branches: -1 };
  }
  const rand = rng(opts.seed ?? 42);
  const messages = loadMessages(opts.sources);
  const fd = openSync(opts.out, "w");
  const ids = new Set<string>();
  const newId = () => {
    for (;;) {
      const id = randomBytes(4).toString("hex");
      if (!ids.has(id)) {
        ids.add(id);
        return id;
      }
    }
  };
  let bytes = 0;
  let clock = Date.parse("2026-01-01T00:00:00.000Z");
  const buf: string[] = [];
  let pending = 0;
  const write = (obj: unknown) => {
    const line = `${JSON.stringify(obj)}\n`;
    buf.push(line);
    pending += line.length;
    bytes += Buffer.byteLength(line);
    if (pending > 4 << 20) flush();
  };
  const flush = () => {
    writeSync(fd, buf.join(""));
    buf.length = 0;
    pending = 0;
  };
  write({ type: "session", version: 3, id: "bench-" + newId(), timestamp: new Date(clock).toISOString(), cwd: "/bench/project" });
  // The path of the current leaf, newest last, so branches and compactions can look back.
  const recent: string[] = [];
  let leaf: string | null = null;
  let entries = 0;
  let compactions = 0;
  let branches = 0;
  let sinceCompaction = 0;
  let k = 0;
  const branchRate = opts.branchRate ?? 0.01;
  // About what a 200k-token context window holds before pi compacts.
  const compactEvery = opts.compactEvery ?? 1 << 20;
  while (bytes < opts.targetBytes) {
    const message = messages[k++ % messages.length];
    if (recent.length > 20 && rand() < branchRate) {
      // Branch points stay after the last compaction, as when a user rewinds with /tree.
      leaf = recent[recent.length - 2 - Math.floor(rand() * 15)];
      recent.length = recent.indexOf(leaf) + 1;
      branches++;
    }
    const id = newId();
    clock += 1000;
    const before = bytes;
    write({ type: "message", id, parentId: leaf, timestamp: new Date(clock).toISOString(), message });
    sinceCompaction += bytes - before;
    leaf = id;
    recent.push(id);
    if (recent.length > 400) recent.splice(0, recent.length - 400);
    entries++;
    if (sinceCompaction > compactEvery && recent.length > 40) {
      const cid = newId();
      clock += 1000;
      write({
        type: "compaction",
        id: cid,
        parentId: leaf,
        timestamp: new Date(clock).toISOString(),
        summary: "## Goal\nSynthetic benchmark compaction.\n\n## Progress\n- [x] earlier work",
        firstKeptEntryId: recent[recent.length - 30],
        tokensBefore: 150000,
        details: { readFiles: [], modifiedFiles: [] },
      });
      leaf = cid;
      recent.length = 0;
      recent.push(cid);
      entries++;
      compactions++;
      sinceCompaction = 0;
    }
  }
  flush();
  closeSync(fd);
  return { bytes, entries, compactions, branches };
}
