/**
 * JSON.stringify(value).length without building the string. pi's estimate for a tool
 * call counts its serialized arguments; on large write/edit calls serializing them
 * again was the costliest part of indexing, so the length is counted instead.
 */
export function jsonLength(v: unknown): number {
  switch (typeof v) {
    case "string":
      return quotedLength(v);
    case "number":
      return Number.isFinite(v) ? String(v).length : 4;
    case "boolean":
      return v ? 4 : 5;
    case "bigint":
      // JSON.stringify throws on bigint; JSON.parse never makes one.
      return String(v).length;
    case "object": {
      if (v === null) return 4;
      if (typeof (v as { toJSON?: unknown }).toJSON === "function") return JSON.stringify(v)?.length ?? 0;
      if (Array.isArray(v)) {
        let n = 2 + Math.max(0, v.length - 1);
        for (const x of v) n += x === undefined || typeof x === "function" || typeof x === "symbol" ? 4 : jsonLength(x);
        return n;
      }
      let n = 2;
      let k = 0;
      for (const key of Object.keys(v)) {
        const x = (v as Record<string, unknown>)[key];
        if (x === undefined || typeof x === "function" || typeof x === "symbol") continue;
        n += quotedLength(key) + 1 + jsonLength(x);
        k++;
      }
      return n + Math.max(0, k - 1);
    }
    default:
      return 0;
  }
}

/** Length of a string as a JSON literal: quotes, two-char escapes, \u escapes for other controls and lone surrogates. */
function quotedLength(s: string): number {
  let n = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 34 && c !== 92 && (c < 0xd800 || c > 0xdfff)) continue;
    if (c === 34 || c === 92 || c === 8 || c === 9 || c === 10 || c === 12 || c === 13) n += 1;
    else if (c < 0x20) n += 5;
    else if (c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else n += 5;
    } else n += 5;
  }
  return n;
}
