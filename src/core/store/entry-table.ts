import { ByteStrings, type ByteStringsPart } from "./byte-strings";
import type { EntryMeta, RecordedUsage } from "./entry-meta";
import { releaseNow } from "./release-memory";

/**
 * The first `count` entries of a table, every column as it is stored: what a worker
 * thread that indexed part of a file hands back (the typed arrays transfer, no copy).
 */
export interface TablePart {
  count: number;
  dict: string[];
  typeCodes: Uint16Array;
  roleCodes: Uint16Array;
  stopCodes: Uint16Array;
  providerCodes: Uint16Array;
  modelCodes: Uint16Array;
  parentKinds: Uint8Array;
  parentOther: Array<[number, string]>;
  offsets: Float64Array;
  times: Float64Array;
  lines: Int32Array;
  lengths: Int32Array;
  estimates: Int32Array;
  toolCalls: Int32Array;
  /** Per entry: its slot in `usage` plus 1; 0 for none. */
  usageAt: Int32Array;
  /** The slots in use, 6 figures each. */
  usage: Float64Array;
  ids: ByteStringsPart;
  previews: ByteStringsPart;
  rare: Array<[number, RareFields]>;
}

/** Fields only some entry types have, kept in a side map. */
export type RareFields = Pick<
  EntryMeta,
  "thinkingLevel" | "targetId" | "label" | "name" | "firstKeptEntryId" | "firstKeptEntryIndex" | "tokensBefore" | "tokensAfter" | "hasRetainedTail" | "fromId" | "emptySummary" | "excluded"
> & {
  /**
   * What a format read off the line while indexing it, to spare a second parse later
   * (Claude Code's chain facts); plain data, so it crosses to and from the second thread.
   */
  lineFacts?: unknown;
  /** Why the entry's recorded usage was left out: a figure not a finite number >= 0 (see usage-figures.ts). */
  badUsage?: string;
};

function grow<T extends Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array>(a: T, size: number): T {
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
  // Short repeated strings (types, roles, models, stop reasons) as codes into one list.
  private dict: string[] = [""];
  private dictIndex = new Map<string, number>();
  private typeCodes = new Uint16Array(this.cap);
  private roleCodes = new Uint16Array(this.cap);
  private stopCodes = new Uint16Array(this.cap);
  private providerCodes = new Uint16Array(this.cap);
  private modelCodes = new Uint16Array(this.cap);
  /** 0: no parent, 1: the previous entry (a chain, the common case), 2: parentOther. */
  private parentKinds = new Uint8Array(this.cap);
  private readonly parentOther = new Map<number, string>();
  offsets = new Float64Array(this.cap);
  times = new Float64Array(this.cap);
  lines = new Int32Array(this.cap);
  lengths = new Int32Array(this.cap);
  estimates = new Int32Array(this.cap);
  toolCalls = new Int32Array(this.cap);
  /**
   * Usage is recorded on a few entries only (a Codex rollout: one line in 20), so each entry
   * holds a slot number (0: none) and the figures sit in slots of 6: input, output,
   * cacheRead, cacheWrite, totalTokens, cost (NaN total or cost = absent). 4 bytes an entry
   * rather than 48 (a 100 MB rollout: 5 MB less).
   */
  private usageAt = new Int32Array(this.cap);
  private usage = new Float64Array(64 * 6);
  private usageSlots = 0;
  private ids = new ByteStrings();
  private previews = new ByteStrings();
  readonly rare = new Map<number, RareFields>();

  /** Times the columns doubled as entries came (tests: a load that set room aside never does). */
  doublings = 0;

  /** Room for `extra` more entries: double, or exactly that many when `exact`. */
  private reserve(extra = 1, exact = false): void {
    if (this.count + extra <= this.cap) return;
    if (!exact) this.doublings++;
    let c = this.cap * 2;
    while (c < this.count + extra) c *= 2;
    if (exact) c = this.count + extra;
    this.typeCodes = grow(this.typeCodes, c);
    this.roleCodes = grow(this.roleCodes, c);
    this.stopCodes = grow(this.stopCodes, c);
    this.providerCodes = grow(this.providerCodes, c);
    this.modelCodes = grow(this.modelCodes, c);
    this.parentKinds = grow(this.parentKinds, c);
    this.offsets = grow(this.offsets, c);
    this.times = grow(this.times, c);
    this.lines = grow(this.lines, c);
    this.lengths = grow(this.lengths, c);
    this.estimates = grow(this.estimates, c);
    this.toolCalls = grow(this.toolCalls, c);
    this.usageAt = grow(this.usageAt, c);
    this.cap = c;
  }

  /**
   * Sets room aside for about `entries` entries in all, so that appending a part later
   * copies nothing already here. Room never written is never touched, so a guess too
   * large costs address space rather than memory.
   */
  expect(entries: number, previewBytes: number): void {
    if (entries > this.cap) this.reserve(entries - this.count, true);
    this.previews.expect(entries, previewBytes);
    this.ids.expect(entries, entries * 16);
  }

  private code(s: string | undefined): number {
    if (s === undefined) return 0;
    let c = this.dictIndex.get(s);
    if (c === undefined) {
      if (this.dict.length >= 65535) return 0;
      c = this.dict.length;
      this.dict.push(s);
      this.dictIndex.set(s, c);
    }
    return c;
  }

  private str(c: number): string | undefined {
    return c === 0 ? undefined : this.dict[c];
  }

  /** Appends an entry's common fields; returns its position. */
  /** `parentIsPrevious`: the caller knows the parent is the entry pushed just before. */
  push(id: string, parentId: string | null, type: string, time: number, line: number, offset: number, length: number, preview: string | Uint16Array, estimate: number, parentIsPrevious = false): number {
    this.reserve();
    const i = this.count++;
    this.ids.set(i, id);
    if (parentId === null) this.parentKinds[i] = 0;
    else if (i > 0 && (parentIsPrevious || parentId === this.idAt(i - 1))) this.parentKinds[i] = 1;
    else {
      this.parentKinds[i] = 2;
      this.parentOther.set(i, parentId);
    }
    this.typeCodes[i] = this.code(type);
    this.roleCodes[i] = this.stopCodes[i] = this.providerCodes[i] = this.modelCodes[i] = 0;
    this.offsets[i] = offset;
    this.times[i] = time;
    this.lines[i] = line;
    this.lengths[i] = length;
    this.estimates[i] = estimate;
    this.toolCalls[i] = 0;
    this.usageAt[i] = 0;
    if (typeof preview === "string") this.previews.set(i, preview);
    else this.previews.setCodes(i, preview);
    return i;
  }

  /** Drops the last entry (a torn line that is about to be read again). */
  pop(): void {
    if (!this.count) return;
    const i = --this.count;
    if (this.views.length > i) this.views.length = i;
    this.rare.delete(i);
    this.parentOther.delete(i);
    // The last slot is given back (a torn line read again takes it anew).
    if (this.usageAt[i] && this.usageAt[i] === this.usageSlots) this.usageSlots--;
  }

  /** The table as a part (sharing its memory: the table must not be written afterwards). */
  toPart(): TablePart {
    const n = this.count;
    return {
      count: n,
      dict: this.dict,
      typeCodes: this.typeCodes.subarray(0, n),
      roleCodes: this.roleCodes.subarray(0, n),
      stopCodes: this.stopCodes.subarray(0, n),
      providerCodes: this.providerCodes.subarray(0, n),
      modelCodes: this.modelCodes.subarray(0, n),
      parentKinds: this.parentKinds.subarray(0, n),
      parentOther: [...this.parentOther],
      offsets: this.offsets.subarray(0, n),
      times: this.times.subarray(0, n),
      lines: this.lines.subarray(0, n),
      lengths: this.lengths.subarray(0, n),
      estimates: this.estimates.subarray(0, n),
      toolCalls: this.toolCalls.subarray(0, n),
      usageAt: this.usageAt.subarray(0, n),
      usage: this.usage.subarray(0, this.usageSlots * 6),
      ids: this.ids.part(n),
      previews: this.previews.part(n),
      rare: [...this.rare],
    };
  }

  /**
   * Appends the entries of a part indexed from later in the same file, as if they had
   * been pushed here one by one: codes re-mapped to this table's dictionary, line
   * numbers moved by `lineBase` (the part counted its lines from 1). The part's memory
   * is given back as it is copied: it must not be used after.
   */
  appendPart(p: TablePart, lineBase: number): void {
    const base = this.count;
    const n = p.count;
    // Exactly: a merge is the last growth, and a doubled copy would be touched memory.
    this.reserve(n, true);
    const codes = p.dict.map((s, k) => (k === 0 ? 0 : this.code(s)));
    for (let k = 0; k < n; k++) {
      const i = base + k;
      this.typeCodes[i] = codes[p.typeCodes[k]];
      this.roleCodes[i] = codes[p.roleCodes[k]];
      this.stopCodes[i] = codes[p.stopCodes[k]];
      this.providerCodes[i] = codes[p.providerCodes[k]];
      this.modelCodes[i] = codes[p.modelCodes[k]];
      this.lines[i] = p.lines[k] + lineBase;
    }
    // Each of the part's columns is freed once copied (the part is not used after).
    for (const v of [p.typeCodes, p.roleCodes, p.stopCodes, p.providerCodes, p.modelCodes, p.lines]) releaseNow(v);
    const copy = <T extends Uint8Array | Float64Array | Int32Array>(to: T, from: T, at: number) => {
      to.set(from, at);
      releaseNow(from);
    };
    copy(this.parentKinds, p.parentKinds, base);
    copy(this.offsets, p.offsets, base);
    copy(this.times, p.times, base);
    copy(this.lengths, p.lengths, base);
    copy(this.estimates, p.estimates, base);
    copy(this.toolCalls, p.toolCalls, base);
    const slots = this.usageSlots;
    const added = p.usage.length / 6;
    this.roomForSlots(slots + added);
    copy(this.usage, p.usage, slots * 6);
    this.usageSlots += added;
    for (let k = 0; k < n; k++) this.usageAt[base + k] = p.usageAt[k] && p.usageAt[k] + slots;
    releaseNow(p.usageAt);
    this.ids.append(base, p.ids);
    this.previews.append(base, p.previews);
    for (const v of [p.ids.buf, p.ids.ends, p.previews.buf, p.previews.ends]) releaseNow(v);
    for (const [k, id] of p.parentOther) this.parentOther.set(base + k, id);
    for (const [k, r] of p.rare) this.rare.set(base + k, r);
    this.count += n;
    // The part's first entry could not see its predecessor: a chain link, as push records it.
    if (n && base > 0 && this.parentKinds[base] === 2 && this.parentOther.get(base) === this.idAt(base - 1)) {
      this.parentKinds[base] = 1;
      this.parentOther.delete(base);
    }
  }

  /** Sets entry i's parent (a format's hooks fixing what a range read on its own could not know). */
  setParent(i: number, parentId: string | null): void {
    this.parentOther.delete(i);
    if (parentId === null) this.parentKinds[i] = 0;
    else if (i > 0 && parentId === this.idAt(i - 1)) this.parentKinds[i] = 1;
    else {
      this.parentKinds[i] = 2;
      this.parentOther.set(i, parentId);
    }
  }

  idAt(i: number): string {
    return this.ids.get(i);
  }
  parentIdAt(i: number): string | null {
    const k = this.parentKinds[i];
    return k === 0 ? null : k === 1 ? this.idAt(i - 1) : (this.parentOther.get(i) as string);
  }
  typeAt(i: number): string {
    return this.dict[this.typeCodes[i]];
  }
  roleAt(i: number): string | undefined {
    return this.str(this.roleCodes[i]);
  }
  setRole(i: number, v: string): void {
    this.roleCodes[i] = this.code(v);
  }
  stopReasonAt(i: number): string | undefined {
    return this.str(this.stopCodes[i]);
  }
  setStopReason(i: number, v: string): void {
    this.stopCodes[i] = this.code(v);
  }
  providerAt(i: number): string | undefined {
    return this.str(this.providerCodes[i]);
  }
  setProvider(i: number, v: string): void {
    this.providerCodes[i] = this.code(v);
  }
  modelAt(i: number): string | undefined {
    return this.str(this.modelCodes[i]);
  }
  setModel(i: number, v: string): void {
    this.modelCodes[i] = this.code(v);
  }
  preview(i: number): string {
    return this.previews.get(i);
  }

  private roomForSlots(slots: number): void {
    if (slots * 6 > this.usage.length) this.usage = grow(this.usage, Math.max(slots, (this.usage.length / 6) * 2) * 6);
  }

  getUsage(i: number): RecordedUsage | undefined {
    const slot = this.usageAt[i];
    if (!slot) return undefined;
    const u = this.usage;
    const k = (slot - 1) * 6;
    if (Number.isNaN(u[k])) return undefined;
    const out: RecordedUsage = { input: u[k], output: u[k + 1], cacheRead: u[k + 2], cacheWrite: u[k + 3] };
    if (!Number.isNaN(u[k + 4])) out.totalTokens = u[k + 4];
    if (!Number.isNaN(u[k + 5])) out.cost = u[k + 5];
    return out;
  }

  setUsageFigures(i: number, input: number, output: number, cacheRead: number, cacheWrite: number, total: number, cost: number): void {
    if (!this.usageAt[i]) {
      this.roomForSlots(this.usageSlots + 1);
      this.usageAt[i] = ++this.usageSlots;
    }
    const k = (this.usageAt[i] - 1) * 6;
    this.usage[k] = input;
    this.usage[k + 1] = output;
    this.usage[k + 2] = cacheRead;
    this.usage[k + 3] = cacheWrite;
    this.usage[k + 4] = total;
    this.usage[k + 5] = cost;
  }

  rareOf(i: number): RareFields {
    let r = this.rare.get(i);
    if (!r) {
      r = {};
      this.rare.set(i, r);
    }
    return r;
  }

  /** Views handed out so far, kept once made (after a load, for the UI's repeated walks). */
  private views: EntryView[] = [];

  /** An array-like of records, so callers index and iterate it like EntryMeta[]. */
  asArray(): readonly EntryMeta[] {
    return new Proxy([] as EntryMeta[], {
      get: (target, prop, receiver) => {
        if (typeof prop === "string") {
          const c = prop.charCodeAt(0);
          if (c >= 48 && c <= 57) {
            const i = Number(prop);
            if (!(i < this.count) || !Number.isInteger(i)) return undefined;
            return this.views[i] ?? (this.views[i] = new EntryView(this, i));
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

  get id() { return this.t.idAt(this.index); }
  get parentId() { return this.t.parentIdAt(this.index); }
  get type() { return this.t.typeAt(this.index); }
  get role() { return this.t.roleAt(this.index); }
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
  get stopReason() { return this.t.stopReasonAt(this.index); }
  get provider() { return this.t.providerAt(this.index); }
  get model() { return this.t.modelAt(this.index); }
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
  get tokensAfter() { return this.r?.tokensAfter; }
  get hasRetainedTail() { return this.r?.hasRetainedTail; }
  get fromId() { return this.r?.fromId; }
  get emptySummary() { return this.r?.emptySummary; }
  get excluded() { return this.r?.excluded; }
}
