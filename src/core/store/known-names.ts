/**
 * A short list of names (a walk's keys, the keys and values pi's tool calls use) found by
 * their bytes, without a string made: which of them buf[from, to) spells. Only the names of
 * that length are compared, first byte first: a walked line asks this of every key it
 * holds, and comparing each with every name was a twentieth of the history's read.
 */
export class KnownNames {
  /** The names' places in `names`, by their length. */
  private readonly places: number[][] = [];
  /** Their bytes, in the same order. */
  private readonly bytes: Uint8Array[][] = [];

  constructor(readonly names: readonly string[]) {
    names.forEach((name, k) => {
      // A line's bytes are UTF-8: a name past ASCII would be compared with bytes it is not written in.
      if (!/^[\x20-\x7e]+$/.test(name)) throw new Error(`KnownNames: "${name}" is not printable ASCII`);
      const bytes = Buffer.from(name, "latin1");
      (this.places[bytes.length] ??= []).push(k);
      (this.bytes[bytes.length] ??= []).push(bytes);
    });
  }

  /** The place in `names` of the name buf[from, to) spells, or -1. */
  indexIn(buf: Uint8Array, from: number, to: number): number {
    const same = this.bytes[to - from];
    if (same === undefined) return -1;
    const first = buf[from];
    for (let j = 0; j < same.length; j++) {
      const n = same[j];
      if (n[0] !== first) continue;
      let i = 1;
      while (i < n.length && buf[from + i] === n[i]) i++;
      if (i === n.length) return this.places[to - from][j];
    }
    return -1;
  }

  /** The name buf[from, to) spells, or undefined. */
  nameIn(buf: Uint8Array, from: number, to: number): string | undefined {
    const k = this.indexIn(buf, from, to);
    return k < 0 ? undefined : this.names[k];
  }
}
