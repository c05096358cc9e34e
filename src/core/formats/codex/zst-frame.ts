import { closeSync, readSync } from "node:fs";
import { openRegular } from "../../util/safe-open";

/** A zstd frame starts with these four bytes (0xFD2FB528, little-endian): RFC 8878 section 3.1.1. */
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** Bytes of a frame header at most: magic 4, descriptor 1, window 1, dictionary id 4, content size 8. */
const HEADER_MAX = 18;

/**
 * The decompressed size the first zstd frame of a file declares (Frame_Content_Size,
 * RFC 8878 section 3.1.1.1.4), when it declares one: `zstd` writes it when it compresses
 * a file, as Codex's rollouts are. A guess for what is to come, never a limit: a file of
 * several frames holds more, and a damaged one may hold less. Undefined when the file
 * does not start with a frame header that has the field.
 */
export function frameContentSize(path: string): number | undefined {
  const buf = Buffer.alloc(HEADER_MAX);
  let got = 0;
  try {
    const fd = openRegular(path);
    try {
      got = readSync(fd, buf, 0, HEADER_MAX, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  return contentSizeOf(buf.subarray(0, got));
}

/** The same from the first bytes of a frame. */
export function contentSizeOf(head: Uint8Array): number | undefined {
  if (head.length < 5 || MAGIC.some((b, k) => head[k] !== b)) return undefined;
  const fhd = head[4];
  const fcsFlag = fhd >> 6;
  const singleSegment = (fhd >> 5) & 1;
  const didSize = [0, 1, 2, 4][fhd & 3];
  const fcsSize = fcsFlag === 0 ? singleSegment : [0, 2, 4, 8][fcsFlag];
  if (fcsSize === 0) return undefined;
  const at = 5 + (singleSegment ? 0 : 1) + didSize;
  if (at + fcsSize > head.length) return undefined;
  let size = 0;
  for (let k = fcsSize - 1; k >= 0; k--) size = size * 256 + head[at + k];
  // The 2-byte field counts from 256 (section 3.1.1.1.4).
  return fcsSize === 2 ? size + 256 : size;
}
