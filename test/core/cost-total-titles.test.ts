import { strict as assert } from "node:assert";
import { MemorySession } from "../../src/core/session/memory-session";
import { piFormat } from "../../src/core/formats/pi/format";
import { costTotal } from "../../src/core/usage/cost-total";
import { costTotalText } from "../../src/core/usage/cost-total-text";
import { sessionCost } from "../../src/core/usage/session-cost";
import { assistant, user } from "../helpers/session-builder";

function paid(path: string, usd: number) {
  const e = assistant("a1", "u1", "ok", { usage: { input: 100, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { total: usd } } });
  e.timestamp = "2026-05-01T12:00:00.000Z";
  return sessionCost(new MemorySession(piFormat.id, piFormat.index, [user("u1", null, "hi"), e], path, 1, 3), piFormat);
}

const A = "/home/ana/.pi/agent/sessions/--p--/2026-05-01T12-00-00-000Z_0a1b.jsonl";
const B = "/home/ana/.pi/agent/sessions/--p--/2026-05-02T12-00-00-000Z_9f8e.jsonl";

describe("cost total: sessions named by their titles (issue 24, item 4)", () => {
  const t = { ...costTotal([
    { path: A, agent: "pi", project: "/p", cost: paid(A, 0.3) },
    { path: B, agent: "pi", project: "/p", cost: paid(B, 0.1) },
  ]), filesRead: 2, filesBefore: 0, failed: [] };

  it("a session line gives its title first and its path at the end; hidden characters in a title are marked", () => {
    const titles: Record<string, string> = { [A]: "Fix the build\u202e" };
    const text = costTotalText(t, { titleOf: (p) => titles[p] });
    const line = text.split("\n").find((l) => l.includes("0a1b.jsonl")) ?? "";
    assert.match(line, /\$0\.3000 .* pi {2}Fix the build⟨U\+202E⟩ {2}\(\/home\/ana\/\.pi\/agent\/sessions\/--p--\/2026-05-01T12-00-00-000Z_0a1b\.jsonl\)$/);
    // A session without a known title keeps its path alone.
    const other = text.split("\n").find((l) => l.includes("9f8e.jsonl")) ?? "";
    assert.match(other, / pi {2}\/home\/ana\/\S*9f8e\.jsonl/);
  });
});
