import { strict as assert } from "node:assert";
import { parseIsoTime } from "../../src/core/util/iso-time";

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
