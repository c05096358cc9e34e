/** What the index keeps per entry: enough for the tree, token bars and context walks. */

export interface RecordedUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens?: number;
  cost?: number;
}

export interface EntryMeta {
  id: string;
  parentId: string | null;
  type: string;
  /** Message role after migration (hookMessage reads as custom). */
  role?: string;
  timestamp: string;
  /** Parsed timestamp in ms; NaN when unparseable. */
  time: number;
  /** 1-based line number in the file. */
  line: number;
  /** Byte range of the line, newline excluded. */
  offset: number;
  length: number;
  preview: string;
  /** pi's chars/4 estimate of what the entry adds to the context. */
  estimate: number;
  usage?: RecordedUsage;
  stopReason?: string;
  provider?: string;
  model?: string;
  thinkingLevel?: string;
  /** label entries */
  targetId?: string;
  label?: string;
  /** session_info */
  name?: string;
  /** compaction */
  firstKeptEntryId?: string;
  firstKeptEntryIndex?: number;
  tokensBefore?: number;
  hasRetainedTail?: boolean;
  /** branch_summary */
  fromId?: string;
  emptySummary?: boolean;
  /** bashExecution with excludeFromContext */
  excluded?: boolean;
  toolCalls?: number;
}

/** Fields only some entry types have; kept off the common record to keep it small. */
interface Rare {
  thinkingLevel?: string;
  targetId?: string;
  label?: string;
  name?: string;
  firstKeptEntryId?: string;
  firstKeptEntryIndex?: number;
  tokensBefore?: number;
  hasRetainedTail?: boolean;
  fromId?: string;
  emptySummary?: boolean;
  excluded?: boolean;
}

/**
 * The index record. A class with every common field set in the constructor gives all
 * records one compact shape (fast to build, cheap to keep at 10^5-10^6 entries); the
 * rare, type-specific fields live in a side object behind accessors.
 */
export class MetaRecord implements EntryMeta {
  role: string | undefined = undefined;
  usage: RecordedUsage | undefined = undefined;
  stopReason: string | undefined = undefined;
  provider: string | undefined = undefined;
  model: string | undefined = undefined;
  toolCalls: number | undefined = undefined;
  private rare: Rare | undefined = undefined;

  constructor(
    public id: string,
    public parentId: string | null,
    public type: string,
    public time: number,
    public line: number,
    public offset: number,
    public length: number,
    public preview: string,
    public estimate: number,
  ) {}

  /** ISO time rebuilt from `time`; the entry itself has the original string. */
  get timestamp(): string {
    return Number.isNaN(this.time) ? "" : new Date(this.time).toISOString();
  }

  private get r(): Rare {
    if (!this.rare) this.rare = {};
    return this.rare;
  }

  get thinkingLevel() { return this.rare?.thinkingLevel; }
  set thinkingLevel(v) { this.r.thinkingLevel = v; }
  get targetId() { return this.rare?.targetId; }
  set targetId(v) { this.r.targetId = v; }
  get label() { return this.rare?.label; }
  set label(v) { this.r.label = v; }
  get name() { return this.rare?.name; }
  set name(v) { this.r.name = v; }
  get firstKeptEntryId() { return this.rare?.firstKeptEntryId; }
  set firstKeptEntryId(v) { this.r.firstKeptEntryId = v; }
  get firstKeptEntryIndex() { return this.rare?.firstKeptEntryIndex; }
  set firstKeptEntryIndex(v) { this.r.firstKeptEntryIndex = v; }
  get tokensBefore() { return this.rare?.tokensBefore; }
  set tokensBefore(v) { this.r.tokensBefore = v; }
  get hasRetainedTail() { return this.rare?.hasRetainedTail; }
  set hasRetainedTail(v) { this.r.hasRetainedTail = v; }
  get fromId() { return this.rare?.fromId; }
  set fromId(v) { this.r.fromId = v; }
  get emptySummary() { return this.rare?.emptySummary; }
  set emptySummary(v) { this.r.emptySummary = v; }
  get excluded() { return this.rare?.excluded; }
  set excluded(v) { this.r.excluded = v; }
}

export type ProblemKind =
  | "parse-error"
  | "torn-line"
  | "not-an-object"
  | "missing-id"
  | "duplicate-id"
  | "unknown-parent"
  | "cycle"
  | "bad-field";

export interface LineProblem {
  kind: ProblemKind;
  line: number;
  message: string;
}

const interned = new Map<string, string>();
/** Share repeated short strings (model names, types) between index records. */
export function intern(s: string): string {
  const hit = interned.get(s);
  if (hit !== undefined) return hit;
  if (interned.size < 10000) interned.set(s, s);
  return s;
}
