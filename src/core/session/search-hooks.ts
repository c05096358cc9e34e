import type { EntryKind } from "./entry-kinds";

/** One piece of an entry's visible text (a prompt, a tool call, a tool's output) and what it is. */
export interface SearchPart {
  kind: EntryKind;
  text: string;
}

/** What a search looks at in one parsed line: the entry's id, time and visible text. */
export interface SearchEntry {
  id: string;
  /** ms since the epoch; NaN when the line has none. */
  time: number;
  /** Only text a person reads (messages, tool names, arguments and output, summaries): never keys or ids. */
  parts: SearchPart[];
}

/** Where a line is in its file, for formats whose ids come from it (pi v1). */
export interface SearchPosition {
  lineNo: number;
  /** The file's version from its header (0 for a format without one). */
  version: number;
}

/**
 * How a search reads one format's lines (src/core/search). It parses only lines whose
 * raw bytes hold a candidate, then asks the format which of the line's text is visible.
 */
export interface SearchHooks {
  /** The entry of a parsed line, or null for a line that is no entry (a header, metadata, junk). */
  entry(e: Record<string, unknown>, at: SearchPosition): SearchEntry | null;
  /** The project folder a session names in its first parsed lines ("" when none). */
  cwd(objects: readonly unknown[]): string;
  /**
   * A file its agent stores compressed (Codex's .jsonl.zst): the plain copy to read in its
   * place, decompressed by streaming (memory bounded by the chunk, not the file), and why
   * it stops early when the data is cut; undefined for any other file.
   */
  plainCopy?(path: string): Promise<PlainCopy> | undefined;
}

/** The decompressed copy of a compressed session file (SearchHooks.plainCopy). */
export interface PlainCopy {
  path: string;
  size: number;
  /** The data is cut or corrupt: what comes before is in the copy; names the file. */
  error?: string;
}

/** Most string leaves a tool's arguments hold; deeper or wider values are cut, not walked. */
const MAX_LEAVES = 200;

/**
 * A tool call's arguments as text: the string, number and boolean values joined by
 * spaces, keys left out (`{"path":"a.ts"}` reads "a.ts"), so a search for a word does not
 * hit every call whose schema names it.
 */
export function valuesText(v: unknown): string {
  const out: string[] = [];
  const walk = (x: unknown, depth: number): void => {
    if (out.length >= MAX_LEAVES || depth > 8) return;
    if (typeof x === "string") out.push(x);
    else if (typeof x === "number" || typeof x === "boolean") out.push(String(x));
    else if (Array.isArray(x)) for (const y of x) walk(y, depth + 1);
    else if (x && typeof x === "object") for (const y of Object.values(x)) walk(y, depth + 1);
  };
  walk(v, 0);
  return out.join(" ");
}

/** A part, or nothing when its text is empty. */
export function part(kind: EntryKind, text: unknown): SearchPart[] {
  return typeof text === "string" && text ? [{ kind, text }] : [];
}

/** The first object's string field, for cwd hooks. */
export function firstString(objects: readonly unknown[], read: (o: Record<string, unknown>) => unknown): string {
  for (const o of objects) {
    if (!o || typeof o !== "object" || Array.isArray(o)) continue;
    const v = read(o as Record<string, unknown>);
    if (typeof v === "string" && v) return v;
  }
  return "";
}
