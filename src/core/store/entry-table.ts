import type { EntryMeta, RecordedUsage } from "./entry-meta";

/** Fields only some entry types have, kept in a side map. */
export interface RareFields {
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

function grow<T extends Float64Array | Int32Array | Uint32Array>(a: T, size: number): T {
  const b = new (a.constructor as new (n: number) => T)(size);
  b.set(a);
  return b;
}

/**
 * The entry index in columns: numbers in typed arrays, previews as bytes in one buffer,
 * ids and (interned) type names in plain arrays. A load keeps no object per entry; that
 * is what keeps V8's heap, and its young generation, small while a 10^5-10^6 entry file
 * streams in. EntryMeta records are made on access (EntryView), short-lived.
 */
export class EntryTable {
  count = 0;
  private cap = 1024;
  ids: string[] = [];
  parentIds: Array<string | null> = [];
  types: string[] = [];
  roles: Array<string | undefined> = [];
  stopReasons: Array<string | undefined> = [];
  providers: Array<string | undefined> = [];
  models: Array<string | undefined> = [];
  offsets = new Float64Array(this.cap);
  times = new Float64Array(this.cap);
  lines = new Int32Array(this.cap);
  lengths = new Int32Array(this.cap);
  estimates = new Int32Array(this.cap);
  toolCalls = new Int32Array(this.cap);
  /** Usage: input, output, cacheRead, cacheWrite, totalTokens, cost; NaN input = none. */
  usage = new Float64Array(this.cap * 6);
  private previewBytes = Buffer.allocUnsafe(64 * 1024);
  private previewEnds = new Uint32Array(this.cap);
  readonly rare = new Map<number, RareFields>();

  private reserve(): void {
    if (this.count < this.cap) return;
    const c = this.cap * 2;
    this.offsets = grow(this.offsets, c);
    this.times = grow(this.times, c);
    this.lines = grow(this.lines, c);
    this.lengths = grow(this.lengths, c);
    this.estimates = grow(this.estimates, c);
    this.toolCalls = grow(this.toolCalls, c);
    this.usage = grow(this.usage, c * 6);
    this.previewEnds = grow(this.previewEnds, c);
    this.cap = c;
  }

  /** Appends an entry's common fields; returns its position. */
  push(id: string, parentId: string | null, type: string, time: number, line: number, offset: number, length: number, preview: string, estimate: number): number {
    this.reserve();
    const i = this.count++;
    this.ids[i] = id;
    this.parentIds[i] = parentId;
    this.types[i] = type;
    this.roles[i] = undefined;
    this.stopReasons[i] = undefined;
    this.providers[i] = undefined;
    this.models[i] = undefined;
    this.offsets[i] = offset;
    this.times[i] = time;
    this.lines[i] = line;
    this.lengths[i] = length;
    this.estimates[i] = estimate;
    this.toolCalls[i] = 0;
    this.usage[i * 6] = Number.NaN;
    const start = i > 0 ? this.previewEnds[i - 1] : 0;
    const need = start + Buffer.byteLength(preview, "utf8");
    if (need > this.previewBytes.length) {
      const b = Buffer.allocUnsafe(Math.max(need, this.previewBytes.length * 2));
      this.previewBytes.copy(b, 0, 0, start);
      this.previewBytes = b;
    }
    this.previewEnds[i] = start + this.previewBytes.write(preview, start, "utf8");
    return i;
  }

  /** Drops the last entry (a torn line that is about to be read again). */
  pop(): void {
    if (!this.count) return;
    const i = --this.count;
    this.rare.delete(i);
    this.ids.length = this.parentIds.length = this.types.length = this.roles.length = i;
    this.stopReasons.length = this.providers.length = this.models.length = i;
  }

  preview(i: number): string {
    return this.previewBytes.toString("utf8", i > 0 ? this.previewEnds[i - 1] : 0, this.previewEnds[i]);
  }

  getUsage(i: number): RecordedUsage | undefined {
    const u = this.usage;
    const k = i * 6;
    if (Number.isNaN(u[k])) return undefined;
    const out: RecordedUsage = { input: u[k], output: u[k + 1], cacheRead: u[k + 2], cacheWrite: u[k + 3] };
    if (!Number.isNaN(u[k + 4])) out.totalTokens = u[k + 4];
    if (!Number.isNaN(u[k + 5])) out.cost = u[k + 5];
    return out;
  }

  setUsage(i: number, v: RecordedUsage | undefined): void {
    const k = i * 6;
    if (!v) {
      this.usage[k] = Number.NaN;
      return;
    }
    this.usage[k] = v.input;
    this.usage[k + 1] = v.output;
    this.usage[k + 2] = v.cacheRead;
    this.usage[k + 3] = v.cacheWrite;
    this.usage[k + 4] = v.totalTokens ?? Number.NaN;
    this.usage[k + 5] = v.cost ?? Number.NaN;
  }

  rareOf(i: number): RareFields {
    let r = this.rare.get(i);
    if (!r) {
      r = {};
      this.rare.set(i, r);
    }
    return r;
  }

  view(i: number): EntryView {
    return new EntryView(this, i);
  }

  /** An array-like of records, so callers index and iterate it like EntryMeta[]. */
  asArray(): readonly EntryMeta[] {
    return new Proxy([] as EntryMeta[], {
      get: (target, prop, receiver) => {
        if (typeof prop === "string") {
          const c = prop.charCodeAt(0);
          if (c >= 48 && c <= 57) {
            const i = Number(prop);
            return Number.isInteger(i) && i < this.count ? new EntryView(this, i) : undefined;
          }
          if (prop === "length") return this.count;
        }
        return Reflect.get(target, prop, receiver);
      },
      has: (target, prop) => {
        if (typeof prop === "string" && /^\d+$/.test(prop)) return Number(prop) < this.count;
        return Reflect.has(target, prop);
      },
    });
  }
}

/** One entry's index record, read from the table's columns. */
export class EntryView implements EntryMeta {
  constructor(
    private readonly t: EntryTable,
    readonly index: number,
  ) {}

  get id() { return this.t.ids[this.index]; }
  get parentId() { return this.t.parentIds[this.index]; }
  get type() { return this.t.types[this.index]; }
  get role() { return this.t.roles[this.index]; }
  get time() { return this.t.times[this.index]; }
  get timestamp() {
    const t = this.time;
    return Number.isNaN(t) ? "" : new Date(t).toISOString();
  }
  get line() { return this.t.lines[this.index]; }
  get offset() { return this.t.offsets[this.index]; }
  get length() { return this.t.lengths[this.index]; }
  get preview() { return this.t.preview(this.index); }
  get estimate() { return this.t.estimates[this.index]; }
  get usage() { return this.t.getUsage(this.index); }
  get stopReason() { return this.t.stopReasons[this.index]; }
  get provider() { return this.t.providers[this.index]; }
  get model() { return this.t.models[this.index]; }
  get toolCalls() { return this.t.toolCalls[this.index] || undefined; }
  private get r() { return this.t.rare.get(this.index); }
  get thinkingLevel() { return this.r?.thinkingLevel; }
  get targetId() { return this.r?.targetId; }
  get label() { return this.r?.label; }
  get name() { return this.r?.name; }
  get firstKeptEntryId() { return this.r?.firstKeptEntryId; }
  set firstKeptEntryId(v: string | undefined) { this.t.rareOf(this.index).firstKeptEntryId = v; }
  get firstKeptEntryIndex() { return this.r?.firstKeptEntryIndex; }
  get tokensBefore() { return this.r?.tokensBefore; }
  get hasRetainedTail() { return this.r?.hasRetainedTail; }
  get fromId() { return this.r?.fromId; }
  get emptySummary() { return this.r?.emptySummary; }
  get excluded() { return this.r?.excluded; }
}
