/**
 * Milliseconds of an ISO-8601 UTC timestamp as pi writes them (`2026-01-02T03:04:05.678Z`),
 * read digit by digit; anything else goes to Date.parse. Indexing parses one per entry,
 * and the general parser was a visible part of the load time.
 */
export function parseIsoTime(s: string): number {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 || s.charCodeAt(10) !== 84 || s.charCodeAt(19) !== 46) return Date.parse(s);
  const year = twoDigits(s, 0) * 100 + twoDigits(s, 2);
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  const hour = twoDigits(s, 11);
  const min = twoDigits(s, 14);
  const sec = twoDigits(s, 17);
  const ms = (s.charCodeAt(20) - 48) * 100 + twoDigits(s, 21);
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 24 && min <= 59 && sec <= 59 && ms >= 0 && ms <= 999)) return Date.parse(s);
  return Date.UTC(year, month - 1, day, hour, min, sec, ms);
}

/** Whether s is an ISO-8601 UTC time that Date's own ISO text gives back unchanged: digits where they go, day 1-28 (no month rolls it over), year from 1000. */
function isOwnIsoText(s: string): boolean {
  if (s.length !== 24) return false;
  for (let k = 0; k < 23; k++) {
    const c = s.charCodeAt(k);
    const want = k === 4 || k === 7 ? 45 : k === 10 ? 84 : k === 13 || k === 16 ? 58 : k === 19 ? 46 : -1;
    if (want >= 0 ? c !== want : c < 48 || c > 57) return false;
  }
  if (s.charCodeAt(23) !== 90 || s.charCodeAt(0) === 48) return false;
  const month = twoDigits(s, 5);
  const day = twoDigits(s, 8);
  return month >= 1 && month <= 12 && day >= 1 && day <= 28 && twoDigits(s, 11) <= 23 && twoDigits(s, 14) <= 59 && twoDigits(s, 17) <= 59;
}

/** The number the two digits at k spell (a function of its own: a closure made at each call was the check's whole cost). */
function twoDigits(s: string, k: number): number {
  return (s.charCodeAt(k) - 48) * 10 + s.charCodeAt(k + 1) - 48;
}

/**
 * A time's ISO text as `new Date(parseIsoTime(s)).toISOString()` gives it ("" for no time):
 * s itself when it is that text already (most are; formatting each again cost a history read
 * ~1% of its time).
 */
export function isoTextOf(s: string): string {
  if (isOwnIsoText(s)) return s;
  const time = parseIsoTime(s);
  return Number.isNaN(time) ? "" : new Date(time).toISOString();
}
