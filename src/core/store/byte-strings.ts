/** The bytes of a ByteStrings column up to some count, as handed between threads. */
export interface ByteStringsPart {
  buf: Uint8Array;
  /** End offset of each string in buf. */
  ends: Uint32Array;
}

function growEnds(a: Uint32Array, size: number): Uint32Array {
  const b = new Uint32Array(size);
  b.set(a);
  return b;
}

/** Strings stored back to back as UTF-8 in one growing buffer, addressed by position. */
export class ByteStrings {
  private buf = Buffer.allocUnsafe(64 * 1024);
  private ends: Uint32Array = new Uint32Array(1024);

  /** Room for string i and `bytes` more bytes after `start`: doubling, or exactly when `exact`. */
  private room(i: number, start: number, bytes: number, exact = false): void {
    if (i >= this.ends.length) this.ends = growEnds(this.ends, exact ? i + 1 : Math.max(i + 1, this.ends.length * 2));
    if (start + bytes > this.buf.length) {
      const b = Buffer.allocUnsafe(exact ? start + bytes : Math.max(start + bytes, this.buf.length * 2));
      this.buf.copy(b, 0, 0, start);
      this.buf = b;
    }
  }

  /** Room for `count` strings in all, of `bytes` bytes in all. */
  expect(count: number, bytes: number): void {
    if (count > this.ends.length) this.ends = growEnds(this.ends, count);
    if (bytes > this.buf.length) {
      const b = Buffer.allocUnsafe(bytes);
      this.buf.copy(b);
      this.buf = b;
    }
  }

  private endOf(i: number): number {
    return i > 0 ? this.ends[i - 1] : 0;
  }

  set(i: number, s: string): void {
    const start = this.endOf(i);
    this.room(i, start, s.length * 3);
    // Ids are short ASCII: copying the bytes beats a call into the encoder.
    if (s.length <= 64) {
      let p = start;
      for (let k = 0; k < s.length; k++) {
        const c = s.charCodeAt(k);
        if (c >= 0x80) {
          this.ends[i] = start + this.buf.write(s, start, "utf8");
          return;
        }
        this.buf[p++] = c;
      }
      this.ends[i] = p;
      return;
    }
    this.ends[i] = start + this.buf.write(s, start, "utf8");
  }

  /** The same from UTF-16 code units, encoded here: no string is made on the way in. */
  setCodes(i: number, codes: Uint16Array): void {
    let p = this.endOf(i);
    this.room(i, p, codes.length * 3);
    const buf = this.buf;
    for (let k = 0; k < codes.length; k++) {
      let c = codes[k];
      if (c < 0x80) buf[p++] = c;
      else if (c < 0x800) {
        buf[p++] = 0xc0 | (c >> 6);
        buf[p++] = 0x80 | (c & 63);
      } else {
        if (c >= 0xd800 && c <= 0xdbff && k + 1 < codes.length && codes[k + 1] >= 0xdc00 && codes[k + 1] <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (codes[++k] - 0xdc00);
          buf[p++] = 0xf0 | (cp >> 18);
          buf[p++] = 0x80 | ((cp >> 12) & 63);
          buf[p++] = 0x80 | ((cp >> 6) & 63);
          buf[p++] = 0x80 | (cp & 63);
          continue;
        }
        // A lone surrogate becomes U+FFFD, as Buffer.write does.
        if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
        buf[p++] = 0xe0 | (c >> 12);
        buf[p++] = 0x80 | ((c >> 6) & 63);
        buf[p++] = 0x80 | (c & 63);
      }
    }
    this.ends[i] = p;
  }

  get(i: number): string {
    return this.buf.toString("utf8", this.endOf(i), this.ends[i]);
  }

  /** The first `count` strings, sharing this column's memory (transfer or copy before writing again). */
  part(count: number): ByteStringsPart {
    return { buf: new Uint8Array(this.buf.buffer, this.buf.byteOffset, this.endOf(count)), ends: this.ends.subarray(0, count) };
  }

  /** Appends a part's strings after the first `count` strings. */
  append(count: number, part: ByteStringsPart): void {
    const n = part.ends.length;
    if (!n) return;
    const start = this.endOf(count);
    this.room(count + n - 1, start, part.buf.length, true);
    this.buf.set(part.buf, start);
    for (let k = 0; k < n; k++) this.ends[count + k] = start + part.ends[k];
  }
}
