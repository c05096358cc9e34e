import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { sessionContents } from "../../../src/core/formats/gemini-cli/session-contents";
import { replay } from "../../../src/core/formats/gemini-cli/replay";

/** Recorded with the real Gemini CLI by scripts/gemini/record.mjs (npm run record:gemini). */
const FIXTURES = join(process.cwd(), "test", "fixtures", "gemini-cli");

function sessionFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/^session-.*\.jsonl?$/.test(name) && /[\\/]chats$/.test(d)) out.push(p);
    }
  };
  walk(join(dir, ".gemini"));
  return out;
}

describe("Gemini CLI: the contents it sends on resume (goldens recorded with the real 0.61.0)", () => {
  const cases = existsSync(FIXTURES) ? readdirSync(FIXTURES).filter((d) => existsSync(join(FIXTURES, d, "golden.context.json"))) : [];
  it("has recorded cases to check", () => assert.ok(cases.length >= 5, `only ${cases.length} recorded cases in ${FIXTURES}`));
  for (const name of cases) {
    it(`${name}: native contents equal what Gemini CLI sent, key order included`, () => {
      const dir = join(FIXTURES, name);
      const golden = JSON.parse(readFileSync(join(dir, "golden.context.json"), "utf8")) as { messages: unknown[] };
      // The session Gemini resumes: the newest file of the id that holds resumable content.
      const candidates = sessionFiles(dir)
        .map((p) => ({ p, r: replay(readFileSync(p, "utf8"), p) }))
        .filter((c) => c.r.meta.kind !== "subagent" && sessionContents(c.r).some((m) => m.role === "model"))
        .sort((a, b) => String(b.r.meta.lastUpdated).localeCompare(String(a.r.meta.lastUpdated)));
      assert.ok(candidates.length > 0, `${name}: no resumable session file`);
      const ours = sessionContents(candidates[0].r).map(({ parts, role }) => ({ parts, role }));
      assert.equal(JSON.stringify(ours, null, 1), JSON.stringify(golden.messages, null, 1));
    });
  }
});
