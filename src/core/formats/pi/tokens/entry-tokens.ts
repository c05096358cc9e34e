import { createHash } from "node:crypto";
import { closeSync, readSync } from "node:fs";
import type { Session } from "../pi-session";
import { chunkAtWhitespace } from "../../../tokens/text-chunks";
import { type BpeCounter, countExact } from "../../../tokens/bpe-counter";
import { estimateTextTokens, IMAGE_TOKENS } from "../../../tokens/estimate";
import type { CachedEntryCounts } from "../../../tokens/token-cache";
import type { EntryTokens, MeasureOptions, MeasureStats } from "../../../tokens/entry-tokens";
import { countsFromArray, countsToArray, emptyCounts, type KindCounts, sumCounts } from "../../../tokens/kind-counts";
import { entryPieces, primaryKind } from "./pi-pieces";
import { openRegular } from "../../../util/safe-open";

/** Kept for the extension host until it counts through pi's format (issue 26, h-host): the lead removes it at merge. */
export type { EntryTokens } from "../../../tokens/entry-tokens";

/** Entry types that can put content into a context; the rest are never read. */
const CARRIERS = new Set(["message", "compaction", "branch_summary", "custom_message"]);

/**
 * Figures from the index alone: no I/O, O(entries). This is what the first paint draws
 * (a 100 MB session gets its bars as soon as it is indexed); `measureEntries` refines it.
 */
export function instantTokens(session: Session, from = 0): EntryTokens[] {
  // Straight from the index columns: this runs over every entry at first paint. With
  // `from`, positions before it are left empty (the caller has them already).
  const t = session.table;
  const out: EntryTokens[] = new Array(t.count);
  for (let index = from; index < t.count; index++) {
    const type = t.typeAt(index);
    const role = t.roleAt(index);
    const estimate = t.estimates[index];
    const byKind = emptyCounts();
    const k = primaryKind(type, role);
    if (k) byKind[k] = estimate;
    const e: EntryTokens = {
      index,
      id: t.idAt(index),
      kind: type === "message" ? (role ?? "message") : type,
      pi: estimate,
      estimate,
      estimateByKind: byKind,
      measured: false,
    };
    const usage = t.getUsage(index);
    if (usage) e.recorded = usage;
    out[index] = e;
  }
  return out;
}

const BLOCK = 4 * 1024 * 1024;

function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Text longer than this is tokenized in parts with yields between them. */
const YIELD_CHARS = 64 * 1024;

/**
 * Per-kind counts of one entry's content by the instant estimate and, optionally, the
 * tokenizer. A long text is counted in parts cut at whitespace, and `pause` may yield
 * to the event loop between parts, so one megabyte tool output cannot stall the host.
 */
async function countEntry(obj: Record<string, unknown>, counter: BpeCounter | undefined, pause: () => Promise<void>): Promise<{ e: KindCounts; x?: KindCounts; f: number }> {
  const pieces = entryPieces(obj);
  const e = emptyCounts();
  const x = counter ? emptyCounts() : undefined;
  let f = 0;
  for (const p of pieces.texts) {
    e[p.kind] += estimateTextTokens(p.text);
    if (!x || !counter) continue;
    const parts = p.text.length > YIELD_CHARS ? chunkAtWhitespace(p.text, YIELD_CHARS) : [p.text];
    for (const part of parts) {
      const c = countExact(counter, part);
      x[p.kind] += c.tokens;
      f += c.fallbackChars;
      if (parts.length > 1) await pause();
    }
  }
  // No offline tokenizer sizes images (Claude bills by pixels); both figures use pi's 1,200.
  e.image += pieces.images * IMAGE_TOKENS;
  if (x) x.image += pieces.images * IMAGE_TOKENS;
  return { e, x, f };
}

function fillFromCache(row: EntryTokens, hit: CachedEntryCounts, withExact: boolean): void {
  row.estimateByKind = countsFromArray(hit.e);
  row.estimate = sumCounts(row.estimateByKind);
  row.measured = true;
  if (withExact && hit.x) {
    row.exactByKind = countsFromArray(hit.x);
    row.exact = sumCounts(row.exactByKind);
    row.fallbackChars = hit.f ?? 0;
  }
}

/**
 * Reads entry bodies by byte range (in 4 MiB blocks, not through the Session's LRU, so a
 * full pass does not evict what the UI is showing), and fills `estimate`/`exact` in
 * `table`. Cooperative: yields every `sliceMs`, reports progress, stops with the
 * signal's reason when aborted (figures measured so far stay in the table and cache).
 */
export async function measureEntries(session: Session, table: EntryTokens[], opts: MeasureOptions = {}): Promise<MeasureStats> {
  const t0 = performance.now();
  const t = session.table;
  const { counter, cache, signal } = opts;
  const all = opts.indices ? [...opts.indices].sort((a, b) => a - b) : Array.from({ length: t.count }, (_, i) => i);
  // Entries that carry nothing are settled without I/O: every figure is 0.
  for (const i of all) {
    if (CARRIERS.has(t.typeAt(i))) continue;
    table[i].measured = true;
    if (counter) {
      table[i].exact = 0;
      table[i].exactByKind = emptyCounts();
    }
  }
  const wanted = all.filter((i) => CARRIERS.has(t.typeAt(i)));
  cache?.bindFile(session.stamp);
  const sliceMs = opts.sliceMs ?? 10;
  const stats: MeasureStats = { entries: 0, bytes: 0, cacheHits: 0, tokenized: 0, ms: 0 };
  signal?.throwIfAborted();
  const fd = openRegular(session.path);
  try {
    let buf = Buffer.allocUnsafe(BLOCK);
    let blockStart = 0;
    let blockEnd = 0;
    let slice = performance.now();
    let done = 0;
    // Yield only when the time slice is used up: an await per entry would cost more
    // than a cache hit does.
    const pause = async () => {
      if (performance.now() - slice <= sliceMs) return;
      opts.onProgress?.(done, wanted.length);
      await yieldToLoop();
      signal?.throwIfAborted();
      slice = performance.now();
    };
    const due = () => performance.now() - slice > sliceMs;
    for (let n = 0; n < wanted.length; n++) {
      done = n;
      const i = wanted[n];
      const m = { offset: t.offsets[i], length: t.lengths[i] };
      const row = table[i];
      // Unchanged file: the counts are known by offset, the line need not even be read.
      const quick = cache?.getAt(m.offset);
      if (quick && (!counter || quick.x)) {
        fillFromCache(row, quick, !!counter);
        stats.cacheHits++;
        stats.bytes += m.length;
      } else {
        if (m.offset < blockStart || m.offset + m.length > blockEnd) {
          if (m.length > buf.length) buf = Buffer.allocUnsafe(m.length);
          blockStart = m.offset;
          blockEnd = blockStart + readSync(fd, buf, 0, buf.length, blockStart);
        }
        const raw = buf.subarray(m.offset - blockStart, m.offset - blockStart + m.length);
        stats.bytes += m.length;
        const key = cache ? createHash("sha1").update(raw).digest("base64") : "";
        const hit = cache?.get(key);
        if (hit && (!counter || hit.x)) {
          stats.cacheHits++;
          fillFromCache(row, hit, !!counter);
          cache?.setHashAt(m.offset, key);
        } else {
          let obj: Record<string, unknown>;
          try {
            obj = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
          } catch {
            continue; // the file changed under us; the index reload will report it
          }
          const c = await countEntry(obj, counter, pause);
          row.estimateByKind = c.e;
          if (c.x) {
            row.exactByKind = c.x;
            row.exact = sumCounts(c.x);
            row.fallbackChars = c.f;
            stats.tokenized++;
          }
          cache?.set(key, { e: countsToArray(c.e), ...(c.x ? { x: countsToArray(c.x), f: c.f } : {}) });
          cache?.setHashAt(m.offset, key);
          row.estimate = sumCounts(row.estimateByKind);
          row.measured = true;
        }
      }
      stats.entries++;
      done = n + 1;
      if (due()) await pause();
    }
  } finally {
    closeSync(fd);
  }
  opts.onProgress?.(wanted.length, wanted.length);
  stats.ms = performance.now() - t0;
  return stats;
}
