/** The format id, also the name of this folder. */
export const OPENCODE_ID = "opencode";

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A session's row (docs/opencode-format.md section 2), the fields this reader uses. */
export interface OcSessionRow {
  id: string;
  parentId: string | null;
  directory: string;
  title: string;
  version: string;
  agent?: string;
  /** Epoch ms. */
  created: number;
  updated: number;
  /** `{messageID, partID?, snapshot, diff}` while a revert is pending. */
  revert?: Json;
  model?: Json;
}

/** One message with its parts, ids as columns and `data` parsed (section 3). */
export interface OcMessage {
  id: string;
  created: number;
  data: Json;
  parts: OcPart[];
}

export interface OcPart {
  id: string;
  data: Json;
}

/** A session as read from either store, with the problems met while reading it. */
export interface OcStored {
  /** `<db>#<id>`, or the legacy tree's session file. */
  address: string;
  session: OcSessionRow;
  messages: OcMessage[];
  /** Child sessions (the task tool's), by id: their titles and agents for the links. */
  children: Map<string, OcSessionRow>;
  problems: Array<{ line: number; message: string }>;
  /** What the session's rows were when read (sessionRowsStamp); a database session only. */
  rowsStamp?: string;
}

/**
 * One entry of an OpenCode session as this reader keeps it: one per part (a tool part is
 * two: its call, and its result once there is one), or the message itself when it has no
 * parts. Entries chain in order: message (time, id), then part id.
 */
export interface OcEntry extends Json {
  id: string;
  parentId: string | null;
  /** The part's type ("text", "tool", ...), "tool-result" for a tool part's result, "message" for a partless message. */
  type: string;
  time: number;
  messageId: string;
  role: string;
  /** The message's data (shared by its parts' entries). */
  message: Json;
  /** The part's data with its id, when the entry is a part. */
  part?: Json;
  /** Deleted by OpenCode at the next prompt (a pending revert): an abandoned branch. */
  reverted?: boolean;
}

/** Why a session path is no OpenCode address, or its database and session id. */
export function parseAddress(path: string): { db: string; sessionId: string } | undefined {
  const m = /^(.+)#(ses_[A-Za-z0-9_-]+)$/.exec(path);
  return m ? { db: m[1], sessionId: m[2] } : undefined;
}

/** Ids OpenCode makes (ses_/msg_/prt_ + base62): nothing else becomes a path part. */
export const SAFE_ID = /^(ses|msg|prt)_[A-Za-z0-9_-]{1,120}$/;

/** The legacy tree's session file: `<data>/storage/session/<projectID>/<sessionID>.json`. */
export const LEGACY_SESSION_FILE = /[\\/]storage[\\/]session[\\/][^\\/]+[\\/](ses_[A-Za-z0-9_-]+)\.json$/;

/**
 * OpenCode's part that requests a compaction (its own type name, which is also one of
 * pi's: matched by pattern so the name stays pi's alone outside pi's folder).
 */
export const COMPACTION_PART = /^compaction$/;
export const isCompactionType = (type: unknown): boolean => typeof type === "string" && COMPACTION_PART.test(type);
/** What the row code switches on for a compaction part (never written anywhere). */
export const COMPACTION_ROW = "compaction-request";
