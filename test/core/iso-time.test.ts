import { strict as assert } from "node:assert";
import { isoTextOf, parseIsoTime } from "../../src/core/util/iso-time";

describe("parseIsoTime", () => {
  it("equals Date.parse on pi's timestamps and on everything else", () => {
    const cases = ["2025-12-08T22:41:05.306Z", "2026-02-29T00:00:00.000Z", "2024-02-29T23:59:59.999Z", "1999-01-01T00:00:00.000Z", "2026-13-01T00:00:00.000Z", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00.000+02:00", "", "not a date", "2026-01-01T24:00:00.000Z"];
    for (const c of cases) {
      const a = parseIsoTime(c);
      const b = Date.parse(c);
      assert.ok(a === b || (Number.isNaN(a) && Number.isNaN(b)), `${c}: ${a} vs ${b}`);
    }
  });
});

describe("isoTextOf", () => {
  it("gives what formatting the parsed time again gives, for pi's times, times that roll over, and the rest", () => {
    const again = (s: string) => {
      const t = parseIsoTime(s);
      return Number.isNaN(t) ? "" : new Date(t).toISOString();
    };
    const cases = [
      "2025-12-08T22:41:05.306Z", "2026-02-28T23:59:59.999Z", "2026-02-29T00:00:00.000Z", "2026-04-31T12:00:00.000Z", "2026-01-01T24:00:00.000Z",
      "0099-01-01T00:00:00.000Z", "0999-01-01T00:00:00.000Z", "1000-01-01T00:00:00.000Z", "2026-00-10T00:00:00.000Z", "2026-01-00T00:00:00.000Z",
      "2026-01-01T00:60:00.000Z", "2026-01-01T00:00:60.000Z", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00.000+02:00", "2026-01-01 00:00:00.000Z",
      "2026-0a-01T00:00:00.000Z", "", "not a date",
    ];
    // And a spread of every month, day and time field.
    for (let k = 0; k < 2000; k++) {
      const p = (n: number, w: number) => String(n).padStart(w, "0");
      cases.push(`${p(1990 + (k % 50), 4)}-${p((k % 14), 2)}-${p((k * 7) % 33, 2)}T${p((k * 5) % 26, 2)}:${p((k * 11) % 61, 2)}:${p((k * 13) % 61, 2)}.${p((k * 17) % 1000, 3)}Z`);
    }
    for (const c of cases) assert.equal(isoTextOf(c), again(c), c);
  });
});
