import { randomBytes } from "node:crypto";
import { ToolInputError } from "./stores";

/** A page of a result holds at most this many characters of JSON (one item always fits, whatever its size). */
export const PAGE_CHARS = 48_000;
/** Items per page unless the client asks for fewer; more is refused. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
/** Results kept for their cursors; the oldest goes first. */
const KEPT = 16;

/** A result to page through: its items, read by position (a session's tree is not copied). */
export interface PagedSource {
  count: number;
  itemAt(i: number): unknown;
  /** What every page repeats before its items (the session a tree is of). */
  head?: Record<string, unknown>;
}

export interface Page {
  head: Record<string, unknown>;
  items: unknown[];
  /** Position of the first item in the whole result. */
  offset: number;
  total: number;
  /** Pass it back (with the same other arguments) for the next page; absent on the last. */
  nextCursor?: string;
}

interface Kept {
  tool: string;
  /** The call's arguments other than cursor and limit: a cursor continues that query only. */
  query: string;
  source: PagedSource;
}

interface CursorBody {
  r: string;
  o: number;
}

/**
 * The results that cursors point into. A result is computed once, on the first call, and
 * its later pages are read from it: every item comes exactly once even while the agents
 * keep writing, and a search is not run again per page.
 */
export class PagedResults {
  private readonly kept = new Map<string, Kept>();

  /** The page a call asks for: the first page of a new result, or the page its cursor names. */
  async page(tool: string, args: { cursor?: string; limit?: number; [field: string]: unknown }, compute: () => Promise<PagedSource>): Promise<Page> {
    const { cursor, limit, ...rest } = args;
    const query = JSON.stringify(rest);
    let id: string;
    let offset = 0;
    if (cursor === undefined) {
      id = randomBytes(9).toString("base64url");
      this.keep(id, { tool, query, source: await compute() });
    } else {
      ({ r: id, o: offset } = decodeCursor(cursor));
      const k = this.kept.get(id);
      if (!k) throw new ToolInputError(`cursor has expired (only the last ${KEPT} results are kept) or is from another server: call ${tool} again without a cursor`);
      if (k.tool !== tool) throw new ToolInputError(`cursor belongs to ${k.tool}, not ${tool}`);
      if (k.query !== query) throw new ToolInputError(`cursor belongs to a ${tool} call with other arguments (${k.query}); give the same ones with it`);
      // Used again: it stays.
      this.kept.delete(id);
      this.kept.set(id, k);
    }
    const source = (this.kept.get(id) as Kept).source;
    if (offset > source.count) throw new ToolInputError("cursor points past the end of its result");
    return takePage(source, offset, limit ?? DEFAULT_LIMIT, (o) => encodeCursor({ r: id, o }));
  }

  private keep(id: string, k: Kept): void {
    this.kept.set(id, k);
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value as string);
  }
}

/** Items from `offset` while they fit the limit and PAGE_CHARS (the first always does). */
export function takePage(source: PagedSource, offset: number, limit: number, cursorAt: (offset: number) => string): Page {
  const items: unknown[] = [];
  let chars = 0;
  let i = offset;
  for (; i < source.count && items.length < limit; i++) {
    const item = source.itemAt(i);
    const size = JSON.stringify(item).length + 1;
    if (items.length && chars + size > PAGE_CHARS) break;
    items.push(item);
    chars += size;
  }
  return { head: source.head ?? {}, items, offset, total: source.count, ...(i < source.count ? { nextCursor: cursorAt(i) } : {}) };
}

/** A plain array as a source. */
export function arraySource(items: readonly unknown[]): PagedSource {
  return { count: items.length, itemAt: (i) => items[i] };
}

function encodeCursor(body: CursorBody): string {
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

function decodeCursor(cursor: string): CursorBody {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    body = undefined;
  }
  const b = body as Partial<CursorBody> | undefined;
  if (!b || typeof b.r !== "string" || typeof b.o !== "number" || !Number.isInteger(b.o) || b.o < 0) {
    throw new ToolInputError("cursor is not one this server gave (pass nextCursor from the previous page unchanged)");
  }
  return { r: b.r, o: b.o };
}
