import type { IndexHooks, RangeHandOver } from "./index-hooks";
import { type BuilderPart, IndexBuilder } from "./index-builder";
import { type RawLine, scanChunks, type ScanOptions, type ScanResult, scanLines } from "./line-scanner";

/** A byte range of a v2/v3 session to index on its own: from a line start to the end. */
export interface RangeRequest {
  path: string;
  from: number;
  to: number;
  /** The format whose hooks read the lines (by id: functions do not cross threads). */
  formatId: string;
  header: Record<string, unknown> | undefined;
  version: number;
  /** Entries the range likely holds (leaning high): room set aside at once, so the table never grows by copies. */
  entriesGuess?: number;
  /** Skim the lines the per-file history does not need (LoadOptions.skim). */
  skim?: boolean;
}

/** Bytes a preview takes on average, for room set aside in advance (at most ~100 ASCII chars). */
export const PREVIEW_BYTES_GUESS = 96;

/** The index of a range, line numbers counted from 1 at its first line. */
export interface RangeIndex extends BuilderPart {
  /** Lines the range holds. */
  lines: number;
  endOffset: number;
  endsWithNewline: boolean;
  /** The range's last line when it has no newline (a torn line, or one still being written). */
  tail?: { offset: number; line: number };
  /** What the format's hooks found that hangs on the lines before the range (see IndexHooks.startRange). */
  hooks?: RangeHandOver;
}

/** Feeds the lines of a byte range (of a file, or of chunks as they come) to a builder; `tail` is the last line when it has no newline. */
export async function scanInto(source: string | AsyncIterable<Uint8Array>, builder: IndexBuilder, opts: ScanOptions): Promise<{ scan: ScanResult; tail?: { offset: number; line: number } }> {
  let tail: { offset: number; line: number } | undefined;
  const onLine = (line: RawLine) => {
    if (!line.terminated) tail = { offset: line.offset, line: line.lineNo };
    builder.accept(line);
  };
  const scan = typeof source === "string" ? await scanLines(source, onLine, opts) : await scanChunks(source, onLine, opts);
  return { scan, tail };
}

/** Indexes one range with its own builder, as the lines after a header would be (`hooks`: the format's, found by the caller: on a worker thread by `req.formatId`). */
export async function indexRange(req: RangeRequest, hooks: IndexHooks, onProgress?: (offset: number) => void, signal?: AbortSignal): Promise<RangeIndex> {
  const builder = new IndexBuilder(req.path, hooks, { header: req.header, version: req.version, prevId: null, parsedCount: 1 }, req.skim);
  if (req.entriesGuess) builder.table.expect(req.entriesGuess, req.entriesGuess * PREVIEW_BYTES_GUESS);
  hooks.startRange?.(req.header);
  const { scan, tail } = await scanInto(req.path, builder, { fromOffset: req.from, fromLine: 1, toOffset: req.to, onProgress, signal });
  const handed = hooks.handOverRange?.();
  return { ...builder.handOver(), lines: scan.nextLine - 1, endOffset: scan.endOffset, endsWithNewline: scan.endsWithNewline, tail, ...(handed ? { hooks: handed } : {}) };
}

/** The memory behind a range index's columns, to transfer to another thread rather than copy. */
export function transferList(r: RangeIndex): ArrayBuffer[] {
  const p = r.part;
  const views = [p.typeCodes, p.roleCodes, p.stopCodes, p.providerCodes, p.modelCodes, p.parentKinds, p.offsets, p.times, p.lines, p.lengths, p.estimates, p.toolCalls, p.usageAt, p.usage, p.ids.buf, p.ids.ends, p.previews.buf, p.previews.ends];
  return [...new Set(views.map((v) => v.buffer as ArrayBuffer))];
}
