import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { renderFormatContext } from "../../../src/core/context/format-context";
import { legacySessionFiles } from "../../../src/core/formats/opencode/legacy-read";
import { openSession } from "../../../src/core/formats/registry";

/**
 * Goldens recorded with the real OpenCode (scripts/opencode/, h-ocrec's): per scenario,
 * `data/opencode/opencode.db` (and `storage/` for the legacy tree) and
 * `goldens/<sessionId>.native.json` = {messages} as OpenCode sent them on a continue
 * (chat-completions wire shape, the system message(s) and the new prompt left out).
 * Every golden found is checked against `ase context --format native` at the default leaf.
 */

const ROOT = resolve("test/fixtures/opencode");

interface Golden {
  scenario: string;
  sessionId: string;
  file: string;
  data: string;
}

function goldens(): Golden[] {
  if (!existsSync(ROOT)) return [];
  const out: Golden[] = [];
  for (const scenario of readdirSync(ROOT).sort()) {
    const dir = join(ROOT, scenario, "goldens");
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir).sort()) {
      const m = /^(ses_[A-Za-z0-9_-]+)\.native\.json$/.exec(name);
      if (m) out.push({ scenario, sessionId: m[1], file: join(dir, name), data: join(ROOT, scenario, "data", "opencode") });
    }
  }
  return out;
}

/** Where a golden's session is: the scenario's database, else its legacy tree. */
function addressOf(g: Golden): string {
  const db = join(g.data, "opencode.db");
  if (existsSync(db)) return `${db}#${g.sessionId}`;
  const file = legacySessionFiles(g.data).find((f) => f.endsWith(`${g.sessionId}.json`));
  if (!file) throw new Error(`${g.scenario}: no opencode.db and no legacy file for ${g.sessionId}`);
  return file;
}

describe("OpenCode goldens: the context `ase` rebuilds equals what the real OpenCode sent", () => {
  const all = goldens();

  it(`found the recorded goldens (${all.length} under test/fixtures/opencode)`, () => {
    // Zero is a failure only once the fixtures folder exists (before h-ocrec's merge it does not).
    if (existsSync(ROOT)) assert.ok(all.length > 0, `${ROOT} exists but holds no <scenario>/goldens/<sessionId>.native.json`);
    else console.log(`      (no ${ROOT}: 0 goldens to check)`);
  });

  for (const g of all) {
    it(`${g.scenario}/${g.sessionId}`, async () => {
      const expected = (JSON.parse(readFileSync(g.file, "utf8")) as { messages: unknown[] }).messages;
      const s = await openSession(addressOf(g));
      const got = (renderFormatContext(s, s.format.defaultLeaf(s), "native") as { messages: unknown[] }).messages;
      assert.deepEqual(got, expected);
    });
  }
});
