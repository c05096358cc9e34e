// pi's entry ids to their entries' positions, for the history's quick read of a file
// (file-ops-read.ts), which meets every entry's id once and its parent's id once. pi writes
// ids of 8 lowercase hex digits: those are kept as the number they spell (no string made
// per line, nor hashed), any other id as its string. The two never meet: a string id here
// is never 8 lowercase hex digits.

/** An id as kept: the number 8 lowercase hex digits spell, or the id itself. */
export type IdKey = number | string;

/** The value of hex digit c (a byte or a character code) in lowercase, or -1. */
function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/** The number buf[from, to) spells when it is 8 lowercase hex digits, else -1. */
export function hexIdAt(buf: Uint8Array, from: number, to: number): number {
  if (to - from !== 8) return -1;
  let n = 0;
  for (let k = from; k < to; k++) {
    const d = hexDigit(buf[k]);
    if (d < 0) return -1;
    n = n * 16 + d;
  }
  return n;
}

/** An id's key: the number for 8 lowercase hex digits, else the id. */
export function keyOf(id: string): IdKey {
  if (id.length !== 8) return id;
  let n = 0;
  for (let k = 0; k < 8; k++) {
    const d = hexDigit(id.charCodeAt(k));
    if (d < 0) return id;
    n = n * 16 + d;
  }
  return n;
}

/** Ids to positions: an open-addressed table of numbers, a map for the rest. */
export class EntryIds {
  private bits = 12;
  private keys = new Uint32Array(1 << 12);
  /** -1: an empty slot. */
  private positions = new Int32Array(1 << 12).fill(-1);
  private numbers = 0;
  private readonly strings = new Map<string, number>();

  /** The position of the entry with this id, or undefined. */
  get(id: IdKey): number | undefined {
    if (typeof id === "string") return this.strings.get(id);
    const mask = this.keys.length - 1;
    for (let s = this.slot(id); ; s = (s + 1) & mask) {
      const at = this.positions[s];
      if (at < 0) return undefined;
      if (this.keys[s] === id) return at;
    }
  }

  /** Keeps the id's position: false (and nothing changed) when the id is kept already. */
  add(id: IdKey, position: number): boolean {
    if (typeof id === "string") {
      if (this.strings.has(id)) return false;
      this.strings.set(id, position);
      return true;
    }
    const mask = this.keys.length - 1;
    let s = this.slot(id);
    for (; this.positions[s] >= 0; s = (s + 1) & mask) if (this.keys[s] === id) return false;
    this.keys[s] = id;
    this.positions[s] = position;
    if (++this.numbers * 2 > this.keys.length) this.grow();
    return true;
  }

  private slot(id: number): number {
    return Math.imul(id, 0x9e3779b1) >>> (32 - this.bits);
  }

  private grow(): void {
    const keys = this.keys;
    const positions = this.positions;
    this.bits++;
    this.keys = new Uint32Array(1 << this.bits);
    this.positions = new Int32Array(1 << this.bits).fill(-1);
    const mask = this.keys.length - 1;
    for (let k = 0; k < keys.length; k++) {
      if (positions[k] < 0) continue;
      let s = this.slot(keys[k]);
      while (this.positions[s] >= 0) s = (s + 1) & mask;
      this.keys[s] = keys[k];
      this.positions[s] = positions[k];
    }
  }
}
