import type { EntryMeta } from "../../store/entry-meta";
import type { EntryTable } from "../../store/entry-table";
import { holdsFileCallMarker } from "./file-call-markers";
import { entryPreviewCodes } from "./model/preview";
import { estimateEntryTokens } from "./tokens/pi-estimate";
import { parseIsoTime } from "../../util/iso-time";
import type { IndexHooks, IndexPosition } from "../../store/index-hooks";
import { putUsageFigures } from "../../tokens/usage-figures";

/** Deterministic ids for v1 entries (which have none): the line number as 8 hex chars. */
export function v1EntryId(lineNo: number): string {
  return lineNo.toString(16).padStart(8, "0");
}

function num(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** Writes a usage object's figures into the table (no object kept); a figure not to be believed leaves the usage out, noted. */
function putUsage(t: EntryTable, i: number, u: unknown): void {
  if (!u || typeof u !== "object") return;
  const o = u as Record<string, unknown>;
  const cost = o.cost && typeof o.cost === "object" ? (o.cost as Record<string, unknown>).total : undefined;
  putUsageFigures(t, i, {
    input: ["usage.input", o.input],
    output: ["usage.output", o.output],
    cacheRead: ["usage.cacheRead", o.cacheRead],
    cacheWrite: ["usage.cacheWrite", o.cacheWrite],
    total: ["usage.totalTokens", o.totalTokens],
    cost: ["usage.cost.total", cost],
  });
}

/** What kind of JSON value a would-be header is, without any of its content. */
function jsonKind(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v !== "object") return `a ${typeof v}`;
  const o = v as Record<string, unknown>;
  return o.type === "session" ? 'an object with "type":"session" but no string "id"' : 'an object without "type":"session"';
}

function describe(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** v3 renamed hookMessage to custom: migrated on the parsed line, as pi does after reading. */
function migrateRole(e: Record<string, unknown>, version: number): void {
  if (version >= 3 || e.type !== "message") return;
  const m = e.message as { role?: unknown } | undefined;
  if (m && m.role === "hookMessage") m.role = "custom";
}

function identify(e: Record<string, unknown>, lineNo: number, at: IndexPosition) {
  let id: string;
  let parentId: string | null;
  if (at.version < 2) {
    id = v1EntryId(lineNo);
    parentId = at.prevId;
  } else {
    if (typeof e.id !== "string" || !e.id) return `a version ${at.version} entry needs a string "id"; found ${describe(e.id)} (entry skipped)`;
    id = e.id;
    parentId = typeof e.parentId === "string" ? e.parentId : null;
  }
  const type = typeof e.type === "string" ? e.type : "(untyped)";
  // Before the preview and estimate, so they count the entry as pi does after migrating.
  migrateRole(e, at.version);
  const timestamp = typeof e.timestamp === "string" ? e.timestamp : "";
  // A history read needs the previews of prompts only (a tool call's preview diffs its edit).
  if (at.skims && (e.message as { role?: unknown } | undefined)?.role !== "user") return { id, parentId, type, time: parseIsoTime(timestamp), preview: "", estimate: 0 };
  return { id, parentId, type, time: parseIsoTime(timestamp), preview: entryPreviewCodes(e), estimate: estimateEntryTokens(e) };
}

function fill(t: EntryTable, i: number, e: Record<string, unknown>): void {
  switch (t.typeAt(i)) {
    case "message": {
      const m = (e.message ?? {}) as Record<string, unknown>;
      const role = typeof m.role === "string" ? m.role : "(none)";
      t.setRole(i, role);
      if (role === "assistant") {
        putUsage(t, i, m.usage);
        if (typeof m.stopReason === "string") t.setStopReason(i, m.stopReason);
        if (typeof m.provider === "string") t.setProvider(i, m.provider);
        if (typeof m.model === "string") t.setModel(i, m.model);
        const blocks = Array.isArray(m.content) ? (m.content as Array<{ type?: string }>) : [];
        let calls = 0;
        for (const b of blocks) if (b && b.type === "toolCall") calls++;
        t.toolCalls[i] = calls;
      } else if (role === "toolResult" && m.usage) {
        putUsage(t, i, m.usage);
      } else if (role === "bashExecution" && m.excludeFromContext) {
        t.rareOf(i).excluded = true;
      }
      break;
    }
    case "compaction": {
      const r = t.rareOf(i);
      if (typeof e.firstKeptEntryId === "string") r.firstKeptEntryId = e.firstKeptEntryId;
      if (typeof e.firstKeptEntryIndex === "number") r.firstKeptEntryIndex = e.firstKeptEntryIndex;
      r.tokensBefore = num(e.tokensBefore);
      if (Array.isArray(e.retainedTail)) r.hasRetainedTail = true;
      if (e.usage) putUsage(t, i, e.usage);
      break;
    }
    case "branch_summary": {
      const r = t.rareOf(i);
      r.fromId = typeof e.fromId === "string" ? e.fromId : undefined;
      r.emptySummary = !(typeof e.summary === "string" && e.summary);
      if (e.usage) putUsage(t, i, e.usage);
      break;
    }
    case "label": {
      const r = t.rareOf(i);
      r.targetId = typeof e.targetId === "string" ? e.targetId : undefined;
      r.label = typeof e.label === "string" && e.label ? e.label : undefined;
      break;
    }
    case "session_info":
      if (typeof e.name === "string" && e.name.trim()) t.rareOf(i).name = e.name.trim();
      break;
    case "model_change":
      if (typeof e.provider === "string") t.setProvider(i, e.provider);
      if (typeof e.modelId === "string") t.setModel(i, e.modelId);
      break;
    case "thinking_level_change":
      if (typeof e.thinkingLevel === "string") t.rareOf(i).thinkingLevel = e.thinkingLevel;
      break;
  }
}

/** A v1/v2 entry read again, as the rest of the code reads it (version 3). */
function migrate(obj: Record<string, unknown>, meta: EntryMeta, version: number): Record<string, unknown> {
  if (version < 2) {
    obj.id = meta.id;
    obj.parentId = meta.parentId;
    if (obj.type === "compaction" && typeof obj.firstKeptEntryIndex === "number") {
      obj.firstKeptEntryId = meta.firstKeptEntryId;
      delete obj.firstKeptEntryIndex;
    }
  }
  migrateRole(obj, version);
  return obj;
}

/** Roles whose messages hold pi's file operations (an assistant's toolCall blocks) or a prompt (a user's words). */
const NEEDED_ROLES = new Set(["assistant", "user"]);

/**
 * A message of another role (tool results: the bulk of a session) skimmed, and an assistant's
 * that can call no file tool (file-call-markers.ts); every other
 * entry type is parsed whole, so its rare fields (labels, compactions, names) are all
 * there. Version 2 and 3 entries need their id and parent in the lead (pi writes them
 * first); version 1 ids come from line numbers.
 */
function skimPi(lead: Record<string, unknown>, version: number, line: Buffer): Record<string, unknown> | undefined {
  const role = (lead.message as { role?: unknown } | undefined)?.role;
  return piSkims(lead.type, role, lead.id, "parentId" in lead, version, line, 0, line.length) ? lead : undefined;
}

/**
 * skimPi's rule on a lead's parts, the line being buf[start, end) (the history's own read
 * of pi files asks it too: file-ops-read.ts).
 */
export function piSkims(type: unknown, role: unknown, id: unknown, hasParentId: boolean, version: number, buf: Buffer, start: number, end: number): boolean {
  return piSkimsLead(type, role, id, hasParentId, version, type === "message" && role === "assistant" && holdsFileCallMarker(buf, start, end));
}

/** piSkims with the line's marker answer given (`marked`: whether an assistant's line holds a file call's marker; line-leads.ts finds it). */
export function piSkimsLead(type: unknown, role: unknown, id: unknown, hasParentId: boolean, version: number, marked: boolean): boolean {
  if (type !== "message" || typeof role !== "string") return false;
  if (role === "assistant" ? marked : NEEDED_ROLES.has(role)) return false;
  return version < 2 || (typeof id === "string" && hasParentId);
}

const EXPECTED = '{"type":"session","id":"..."}';

/** pi's one header check: an object with "type":"session" and a string id (detection, listing and loading all ask this). */
export function isPiHeader(obj: unknown): obj is Record<string, unknown> & { type: "session"; id: string } {
  return !!obj && typeof obj === "object" && !Array.isArray(obj) && (obj as Record<string, unknown>).type === "session" && typeof (obj as Record<string, unknown>).id === "string";
}

/** pi's lines: a header first, then entries (v1 without ids, v2 without the custom role). */
export const piIndexHooks: IndexHooks = {
  formatId: "pi",
  agent: "pi",
  header: {
    accept(obj, lineNo) {
      // The first line that parses must be the header (pi: otherwise not a session).
      if (!isPiHeader(obj)) return `first line is not a session header (line ${lineNo} is ${jsonKind(obj)}; expected ${EXPECTED})`;
      return { version: typeof obj.version === "number" ? obj.version : 1 };
    },
    missing(hadBadLines, lines) {
      const what = hadBadLines ? `no JSON line in ${lines} line(s)` : `only blank lines in ${lines} line(s)`;
      return `first line is not a session header (${what}; expected {"type":"session",...})`;
    },
    isRepeat: (e) => e.type === "session",
    positional: (version) => version < 2,
    splittable: (h) => isPiHeader(h) && typeof h.version === "number" && h.version >= 2,
  },
  identify,
  fill,
  idOf: (e) => e.id,
  migrate,
  skim: { skim: skimPi },
};
