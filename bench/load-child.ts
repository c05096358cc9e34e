import { Session } from "../src/core/formats/pi/pi-session";
import { openSession } from "../src/core/formats/registry";
import { scanLines } from "../src/core/store/line-scanner";
import { peakRssBytes } from "./peak-rss";

/**
 * Runs one load in a fresh process so its peak RSS is its own:
 *   node load-child.js index|index-1t|index-parse|parse FILE [--warm]
 * Prints one JSON line: {ms, maxRssBytes, entries, threads}.
 *
 * - index: our load (Session.load: header check, tolerant parse, columnar index with
 *   previews and pi's token estimates), with a second thread from PARALLEL_MIN_BYTES on.
 * - index-1t: the same load kept to one thread.
 * - index-parse: the limit performance.md sets the target against ("JSON.parse every
 *   line, keep only an index (id, parentId, type, role, byte offset, length, usage)
 *   from a stream"), written the plain way: one small object per entry.
 * - parse: the bare floor: stream the same lines and JSON.parse each, keep nothing.
 * - open: any agent's file as the explorer opens it (the registry picks the format; a
 *   Codex .jsonl.zst is indexed as a second thread decompresses it).
 * - open-1t: the same kept to one index thread.
 */
interface PlainIndexRow {
  id: unknown;
  parentId: unknown;
  type: unknown;
  role: unknown;
  offset: number;
  length: number;
  usage: unknown;
}

/** Threads the last load used. */
let threads = 1;

/** One load in the given mode; returns how many entries it indexed or parsed. */
async function load(mode: string, file: string): Promise<number> {
  if (mode === "index" || mode === "index-1t") {
    const s = await Session.load(file, { secondThread: mode === "index" ? undefined : false });
    threads = s.threads;
    return s.metas.length;
  }
  if (mode === "index-parse") {
    const rows: PlainIndexRow[] = [];
    await scanLines(file, (l) => {
      const e = JSON.parse(l.buf.toString("utf8", l.start, l.end)) as Record<string, unknown>;
      const m = e.message as Record<string, unknown> | undefined;
      rows.push({ id: e.id, parentId: e.parentId, type: e.type, role: m?.role, offset: l.offset, length: l.end - l.start, usage: m?.usage });
    });
    return rows.length;
  }
  if (mode === "open" || mode === "open-1t") {
    const s = await openSession(file, mode === "open" ? {} : { secondThread: false });
    // A reader over a JSONL index says how many threads read it; a .zst's says it through its plain copy's.
    const t = (s as { threads?: unknown }).threads;
    threads = typeof t === "number" ? t : 1;
    return s.metas.length;
  }
  if (mode === "parse") {
    let n = 0;
    await scanLines(file, (l) => {
      JSON.parse(l.buf.toString("utf8", l.start, l.end));
      n++;
    });
    return n;
  }
  throw new Error(`unknown mode ${mode}`);
}

export async function loadChild(mode: string, file: string, warm = false): Promise<void> {
  // Warm: the same load once before the timed one, as in an extension host that has
  // opened sessions before (V8 has optimized the code by then).
  if (warm) await load(mode, file);
  const t0 = process.hrtime.bigint();
  const entries = await load(mode, file);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(`${JSON.stringify({ ms, maxRssBytes: peakRssBytes(), entries, threads })}\n`);
}

if (require.main === module) {
  loadChild(process.argv[2], process.argv[3], process.argv[4] === "--warm").catch((err) => {
    process.stderr.write(`${(err as Error).stack}\n`);
    process.exitCode = 1;
  });
}
