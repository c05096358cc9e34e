// A line checked as isValidJson checks it with ownKeysOnce (the whole grammar; the keys of
// the line's own object and of its members' objects each once and unescaped), noting on
// the way where some of its values lie: chosen members of the line, chosen members of one
// of its members' object, the items of one array there, and the long string values of
// chosen keys inside those items. A reader then decodes those places alone: the history
// reads the tool calls of a pi assistant's line, not its usage, its thinking or its texts,
// and a walk costs a quarter of JSON.parse of the same line (bench/json-valid.ts's lines).
//
// Why the answer is JSON.parse's own: the line is JSON as JSON.parse reads it, and the
// members noted are found once each where they are looked for (a repeated key, whose last
// value JSON.parse keeps, makes the walk refuse the line), so each noted place holds the
// value JSON.parse would give that member; the items are JSON texts themselves.

import { KnownNames } from "./known-names";
import { stringScan, type StringScan } from "./json-string-scan";
import { KEYED_LEVELS, memberKey, newKeyLevel, onceKey, SCANNED_LINE, skipLiteral, skipNumber, skipSpace, stringEnd } from "./json-valid";

const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** What a walk notes (all names are plain keys: letters, digits, `_`). */
export interface WalkPlan {
  /** Members of the line whose values' places are noted (WalkedLine.top, in this order). */
  top: readonly string[];
  /** The member of the line whose object holds `inner` and `list`. */
  outer: string;
  /** Members of that object whose values' places are noted (WalkedLine.inner). */
  inner: readonly string[];
  /** The member of that object whose array's items' places are noted (WalkedLine.items). */
  list: string;
  /** The member of each item (an object) whose value's place is noted (WalkedLine.itemKeys). */
  itemKey: string;
  /** Inside those items, at any depth: string values of these keys of at least `cutBytes` bytes (quotes included) are noted (WalkedLine.cuts). */
  cutKeys: readonly string[];
  cutBytes: number;
  /** Deeper than this the line is refused (as isValidJson's limit). */
  limit: number;
  /** Members of the `outer` object a check of the line's rest (walk's `rest`) may name: see LineWalker.walk. */
  restKeys?: readonly string[];
}

/** Where a walked line's values are: start and end pairs, -1 for a member not there. */
export interface WalkedLine {
  top: Int32Array;
  inner: Int32Array;
  /** The list's items, in order; none when the member is not there or not an array. */
  items: number[];
  /** Per item, the place of its `itemKey` member's value (its last, as JSON.parse keeps the last); -1, -1 for none. */
  itemKeys: number[];
  /** The long strings of the cut keys inside the items, quotes included, in order. */
  cuts: number[];
}

// What a container is to the plan (its context), and what a value fills (its slot).
const OTHER = 0;
const LINE = 1;
const OUTER = 2;
const LIST = 3;
const ITEM = 4;
/** An item that is an object (whose `itemKey` is noted); what it holds is ITEM. */
const ITEM_OBJECT = 5;
const NO_SLOT = -1;
const OUTER_SLOT = -2;
const LIST_SLOT = -3;
const ITEM_KEY_SLOT = -4;
/** Slots of the inner members come after this (top members: 0 on). */
const INNER_BASE = 1 << 16;

function namesOf(names: readonly string[]): KnownNames {
  for (const n of names) if (!/^\w+$/.test(n)) throw new Error(`LineWalker: "${n}" is not a plain key`);
  return new KnownNames(names);
}

/** Walks lines by one plan; its WalkedLine is made again by each walk. */
export class LineWalker {
  private readonly topNames: KnownNames;
  private readonly innerNames: KnownNames;
  private readonly outerName: KnownNames;
  private readonly listName: KnownNames;
  private readonly cutNames: KnownNames;
  private readonly itemKeyName: KnownNames;
  private readonly restNames: KnownNames;
  /** Whether the outer object named one of restNames before its list: no check of the rest is taken then. */
  private outerNamedRest = false;
  /** The place of the itemKey's value in the item being walked. */
  private keyFrom = -1;
  private keyTo = -1;
  readonly walked: WalkedLine;
  // Per open container: object or array, context, where it started and the slot it fills.
  private readonly isObject: boolean[] = [];
  private readonly context: number[] = [];
  private readonly startAt: number[] = [];
  private readonly slotAt: number[] = [];
  private scan: StringScan | undefined;

  constructor(private readonly plan: WalkPlan) {
    this.topNames = namesOf(plan.top);
    this.innerNames = namesOf(plan.inner);
    this.outerName = namesOf([plan.outer]);
    this.listName = namesOf([plan.list]);
    this.cutNames = namesOf(plan.cutKeys);
    this.itemKeyName = namesOf([plan.itemKey]);
    this.restNames = namesOf(plan.restKeys ?? []);
    this.walked = { top: new Int32Array(2 * plan.top.length), inner: new Int32Array(2 * plan.inner.length), items: [], itemKeys: [], cuts: [] };
  }

  /**
   * Walks buf[start, end): true when the line is one JSON object as isValidJson with
   * ownKeysOnce accepts it (`walked` then says where the plan's values are), false when not
   * (nothing to use).
   *
   * `rest`, where given, may end the walk when the outer object's list closes at p: true
   * says buf[p, end) closes the outer object and the line as JSON does, naming only members
   * of the outer object in the plan's restKeys, and each once, nested no deeper than 4 and
   * noting nothing of the plan's. The walk takes it when the outer object named none of
   * restKeys before and the plan notes no inner members (it would find them there): the
   * line is then what a whole walk would make of it.
   *
   * A long line's strings are stepped over by `scan` where given (loaded with the line here:
   * one whose memory holds the line already, json-string-scan.ts's stringScanIn), else by
   * this thread's stringScan.
   */
  walk(buf: Uint8Array, start: number, end: number, rest?: (buf: Uint8Array, p: number, end: number) => boolean, scan?: StringScan): boolean {
    // The lists are written from their start and cut to what this walk wrote at its end: a
    // list emptied (length 0) lets its storage go, and each walk made it again.
    this.itemCount = this.cutCount = 0;
    const walked = this.walkLine(buf, start, end, rest, scan);
    const w = this.walked;
    w.items.length = w.itemKeys.length = this.itemCount;
    w.cuts.length = this.cutCount;
    return walked;
  }

  /** How much of the walked lists this walk wrote. */
  private itemCount = 0;
  private cutCount = 0;

  private walkLine(buf: Uint8Array, start: number, end: number, rest: ((buf: Uint8Array, p: number, end: number) => boolean) | undefined, scan: StringScan | undefined): boolean {
    const w = this.walked;
    w.top.fill(-1);
    w.inner.fill(-1);
    this.keyFrom = this.keyTo = -1;
    this.outerNamedRest = false;
    const restTaken = rest && this.plan.inner.length === 0 && this.plan.limit >= 4 ? rest : undefined;
    this.scan = end - start >= SCANNED_LINE ? (scan ?? stringScan()) : undefined;
    this.scan?.load(buf, start, end);
    const { isObject, context } = this;
    let depth = 0;
    let p = skipSpace(buf, start, end);
    if (buf[p] !== OPEN_OBJECT) return false;
    // What the value at p fills, and whether it is a cut key's.
    let slot = NO_SLOT;
    let cut = false;
    for (;;) {
      if (p >= end) return false;
      const from = p;
      const c = buf[p];
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        const obj = c === OPEN_OBJECT;
        if (depth >= this.plan.limit) return false;
        p = skipSpace(buf, p + 1, end);
        if (buf[p] === (obj ? CLOSE_OBJECT : CLOSE_ARRAY) && p < end) p++;
        else {
          const up = depth ? context[depth - 1] : OTHER;
          isObject[depth] = obj;
          context[depth] = depth === 0 ? LINE : slot === OUTER_SLOT && obj ? OUTER : slot === LIST_SLOT && !obj ? LIST : up === LIST && obj ? ITEM_OBJECT : up >= LIST ? ITEM : OTHER;
          this.startAt[depth] = from;
          this.slotAt[depth] = slot;
          depth++;
          if (!obj) {
            slot = NO_SLOT;
            cut = false;
            continue;
          }
          if (depth <= KEYED_LEVELS) newKeyLevel(depth - 1);
          p = this.key(buf, p, end, depth);
          if (p < 0) return false;
          ({ slot, cut } = this.keyed);
          continue;
        }
      } else if (c === QUOTE) {
        p = stringEnd(buf, p, end, this.scan);
        if (p >= 0 && cut && p - from >= this.plan.cutBytes) {
          w.cuts[this.cutCount++] = from;
          w.cuts[this.cutCount++] = p;
        }
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) p = skipNumber(buf, p, end);
      else p = skipLiteral(buf, p, end);
      if (p < 0) return false;
      this.note(slot, depth ? context[depth - 1] : OTHER, from, p);
      // After a value: a comma and the next, or the close of what holds it.
      for (;;) {
        p = skipSpace(buf, p, end);
        if (depth === 0) return p === end;
        if (p >= end) return false;
        const obj = isObject[depth - 1];
        const d = buf[p];
        if (d === 0x2c) {
          p = skipSpace(buf, p + 1, end);
          if (obj) {
            p = this.key(buf, p, end, depth);
            if (p < 0) return false;
            ({ slot, cut } = this.keyed);
          } else {
            slot = NO_SLOT;
            cut = false;
          }
          break;
        }
        if (d !== (obj ? CLOSE_OBJECT : CLOSE_ARRAY)) return false;
        depth--;
        p++;
        this.note(this.slotAt[depth], depth ? context[depth - 1] : OTHER, this.startAt[depth], p);
        if (restTaken && depth === 2 && context[2] === LIST && !this.outerNamedRest && restTaken(buf, p, end)) return true;
      }
    }
  }

  /** What the member key() read last fills. */
  private readonly keyed = { slot: NO_SLOT, cut: false };

  /** A member's key at p in the object open at `depth`: the position of its value (-1: refused), what it fills in `keyed`. */
  private key(buf: Uint8Array, p: number, end: number, depth: number): number {
    const level = depth - 1;
    const k0 = p + 1;
    const v = level < KEYED_LEVELS ? onceKey(buf, p, end, level, this.scan) : memberKey(buf, p, end, this.scan);
    const keyed = this.keyed;
    keyed.slot = NO_SLOT;
    keyed.cut = false;
    if (v < 0) return v;
    const ctx = this.context[level];
    if (ctx === OTHER) return v;
    let k1 = v - 1;
    while (buf[k1] !== QUOTE) k1--;
    if (ctx === LINE) {
      const t = this.topNames.indexIn(buf, k0, k1);
      keyed.slot = t >= 0 ? t : this.outerName.indexIn(buf, k0, k1) === 0 ? OUTER_SLOT : NO_SLOT;
    } else if (ctx === OUTER) {
      if (this.restNames.names.length && this.restNames.indexIn(buf, k0, k1) >= 0) this.outerNamedRest = true;
      const t = this.innerNames.indexIn(buf, k0, k1);
      keyed.slot = t >= 0 ? INNER_BASE + t : this.listName.indexIn(buf, k0, k1) === 0 ? LIST_SLOT : NO_SLOT;
    } else if (ctx === ITEM_OBJECT && this.itemKeyName.indexIn(buf, k0, k1) === 0) keyed.slot = ITEM_KEY_SLOT;
    else keyed.cut = this.cutNames.indexIn(buf, k0, k1) >= 0;
    return v;
  }

  /** A value at [from, to) that fills `slot`, in a container of context `up`. */
  private note(slot: number, up: number, from: number, to: number): void {
    const w = this.walked;
    if (up === LIST) {
      const k = this.itemCount;
      w.items[k] = from;
      w.items[k + 1] = to;
      w.itemKeys[k] = this.keyFrom;
      w.itemKeys[k + 1] = this.keyTo;
      this.itemCount = k + 2;
      this.keyFrom = this.keyTo = -1;
    }
    if (slot === ITEM_KEY_SLOT) {
      this.keyFrom = from;
      this.keyTo = to;
    } else if (slot >= INNER_BASE) {
      w.inner[2 * (slot - INNER_BASE)] = from;
      w.inner[2 * (slot - INNER_BASE) + 1] = to;
    } else if (slot >= 0) {
      w.top[2 * slot] = from;
      w.top[2 * slot + 1] = to;
    }
  }
}

/** The value at buf[from, to) of a walked line (JSON text): a plain string read as it is, anything else parsed. */
export function valueAt(buf: Buffer, from: number, to: number): unknown {
  if (buf[from] === QUOTE) {
    let plain = true;
    for (let i = from + 1; i < to - 1 && plain; i++) plain = buf[i] !== 0x5c && buf[i] < 0x80;
    if (plain) return buf.toString("latin1", from + 1, to - 1);
  }
  return JSON.parse(buf.toString("utf8", from, to));
}
