/** Headers as the SDK hands them over (a fetch Headers), or a plain record from elsewhere. */
export type HeaderBag = { get(name: string): string | null } | Record<string, string | string[] | undefined> | null | undefined;

function header(h: HeaderBag, name: string): string | undefined {
  if (!h) return undefined;
  if (typeof (h as { get?: unknown }).get === "function") return (h as { get(n: string): string | null }).get(name) ?? undefined;
  const rec = h as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * How long the server asks us to wait, in ms: `retry-after-ms` (Anthropic's, fractional
 * ms), else `retry-after` as seconds or as an HTTP date (RFC 9110), measured from `now`.
 * Undefined when absent or unreadable; a date in the past means "now" (0).
 */
export function parseRetryAfter(h: HeaderBag, now: number): number | undefined {
  const ms = header(h, "retry-after-ms")?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.round(Number(ms));
  const ra = header(h, "retry-after")?.trim();
  if (!ra) return undefined;
  if (/^\d+(\.\d+)?$/.test(ra)) return Math.round(Number(ra) * 1000);
  // An HTTP date names its weekday and month; Date.parse alone would read "-3" as a year.
  if (!/[a-z]/i.test(ra)) return undefined;
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}
