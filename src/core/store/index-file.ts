import { guessEntries, guessEntriesFrom } from "./entry-guess";
import type { IndexBuilder } from "./index-builder";
import { PREVIEW_BYTES_GUESS, type RangeIndex, type RangeRequest, scanInto } from "./index-range";
import type { ScanResult } from "./line-scanner";
import { planSplit, RangeWorker, wantsSecondThread } from "./range-worker";

export interface IndexFileOptions {
  signal?: AbortSignal;
  onProgress?: (bytesRead: number, totalBytes: number) => void;
  /** See LoadOptions.secondThread. */
  secondThread?: boolean;
  /** Where to start: a line start, with the builder holding everything before it. */
  from?: number;
  /** Number of the line at `from`. */
  fromLine?: number;
  /** See LoadOptions.stream. */
  stream?: LineStream;
}

/** A file's bytes as they are being written (a .zst's decompressed copy), and a guess at their whole size. */
export interface LineStream extends AsyncIterable<Uint8Array> {
  total(): number;
  /** The whole size the source declares, when it does (a zstd frame's content size): room is set aside from it. */
  sizeHint?(): number | undefined;
}

export interface IndexedFile {
  scan: ScanResult;
  /** The last line when it has no newline. */
  tail?: { offset: number; line: number };
  /** 2 when a worker indexed the second half. */
  threads: number;
  /** Why the worker could not, when this thread indexed its half instead. */
  workerFailure?: string;
}

/** From this many bytes on, a one-thread load sets room aside from a guess (below, doubling copies little). */
const GUESS_MIN_BYTES = 8 * 2 ** 20;

/**
 * Entries set aside room for at most from a stream's size hint: a hint is the source's word
 * (a hostile .zst can declare exabytes), so this bounds the room it can ask for (the room is
 * address space until used: 4M entries ~0.6 GB of it).
 */
const HINTED_ENTRIES_MAX = 4 * 2 ** 20;

/**
 * A stream's chunks, with room set aside in the builder's table at the first one when the
 * stream declares a large size: a table that doubles as it goes keeps its old copy until a
 * major GC (a 100 MB .zst peaked ~7 MB higher), as the one-thread load of a file avoids too.
 */
async function* withRoomSetAside(stream: LineStream, builder: IndexBuilder): AsyncGenerator<Uint8Array> {
  let first = true;
  for await (const chunk of stream) {
    if (first) {
      first = false;
      const hint = stream.sizeHint?.();
      if (hint !== undefined && hint >= GUESS_MIN_BYTES) {
        const more = Math.min(guessEntriesFrom(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length), hint), HINTED_ENTRIES_MAX);
        builder.table.expect(builder.table.count + more, (builder.table.count + more) * PREVIEW_BYTES_GUESS);
      }
    }
    yield chunk;
  }
}

/** Takes over a range indexed after `builder`'s lines (`before` of them), with what its hooks left open. */
export function adoptSecond(builder: IndexBuilder, second: RangeIndex, before: number): void {
  const base = builder.table.count;
  builder.adopt(second, before);
  if (second.hooks && "state" in second.hooks) builder.hooks.adoptRange?.(builder.table, base, second.hooks.state);
}

/**
 * Indexes bytes from..size of a file into `builder` (from 0 unless continuing). Large
 * v2/v3 ranges are split at a line: a worker thread indexes the second half while this
 * thread does the first, and the worker's index is adopted as if this thread had read on. If the worker
 * fails (it should not; memory, say), this thread reads on through its half as well.
 */
export async function indexFile(path: string, builder: IndexBuilder, size: number, opts: IndexFileOptions = {}): Promise<IndexedFile> {
  const stream = opts.stream;
  if (stream) {
    // Another thread writes the bytes as it hands them on: this one indexes them as they come.
    const { scan, tail } = await scanInto(withRoomSetAside(stream, builder), builder, { signal: opts.signal, onProgress: opts.onProgress && ((n) => opts.onProgress?.(n, Math.max(n, stream.total()))) });
    return { scan, tail, threads: 1 };
  }
  const from = opts.from ?? 0;
  const plan = wantsSecondThread(size - from, opts.secondThread) ? planSplit(path, size, from, builder.hooks) : undefined;
  // The worker's share of the guess, by bytes: its own table then grows by no copies either.
  const req: RangeRequest | undefined = plan && { path, from: plan.split, to: size, formatId: builder.hooks.formatId, header: plan.header, version: plan.version, entriesGuess: Math.ceil((plan.entriesGuess * (size - plan.split)) / (size - from)), skim: builder.skims };
  // Room for the second half's entries now, so adopting them copies nothing of ours.
  if (plan) builder.table.expect(plan.entriesGuess, plan.entriesGuess * PREVIEW_BYTES_GUESS);
  else if (size - from >= GUESS_MIN_BYTES) {
    // One thread, a large range: room for all of it now, so the table never doubles.
    const total = builder.table.count + guessEntries(path, from, size);
    builder.table.expect(total, total * PREVIEW_BYTES_GUESS);
  }
  let mainBytes = from;
  let worker: RangeWorker | undefined;
  const progress = () => opts.onProgress?.(mainBytes + (worker?.progress ?? 0), size);
  if (req) worker = new RangeWorker(req, progress, opts.signal);
  try {
    const { scan, tail } = await scanInto(path, builder, {
      fromOffset: from,
      fromLine: opts.fromLine,
      toOffset: req ? req.from : size,
      signal: opts.signal,
      onProgress: opts.onProgress
        ? (n) => {
            mainBytes = n;
            progress();
          }
        : undefined,
    });
    if (!req || !worker) return { scan, tail, threads: 1 };
    let second: RangeIndex | undefined;
    let workerFailure: string | undefined;
    try {
      second = await worker.result;
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      workerFailure = (err as Error).message;
    }
    // The worker failed, or its hooks met a line that needs the state of the lines before
    // (a Codex rollback): this thread reads on, as a one-thread load would.
    if (!second || (second.hooks && "onePass" in second.hooks)) {
      worker.terminate();
      const rest = await scanInto(path, builder, { fromOffset: req.from, fromLine: scan.nextLine, toOffset: size, signal: opts.signal, onProgress: opts.onProgress && ((n) => opts.onProgress?.(n, size)) });
      return { scan: rest.scan, tail: rest.tail, threads: 1, workerFailure };
    }
    const before = scan.nextLine - 1;
    adoptSecond(builder, second, before);
    return {
      scan: { endOffset: second.endOffset, nextLine: scan.nextLine + second.lines, endsWithNewline: second.endsWithNewline },
      tail: second.tail ? { offset: second.tail.offset, line: second.tail.line + before } : tail,
      threads: 2,
    };
  } finally {
    worker?.terminate();
  }
}
