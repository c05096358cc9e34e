import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { buildContext } from "../../src/core/context/build-context";
import { Session } from "../../src/core/store/session";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";

/** Fields the goldens leave out of each message (see fixtures/pi/README.md). */
const DROPPED = ["timestamp", "api", "provider", "model", "usage", "stopReason", "errorMessage", "details"];

function strip(m: object): object {
  const copy: Record<string, unknown> = { ...m };
  for (const k of DROPPED) delete copy[k];
  return copy;
}

describe("context for the default leaf of real pi sessions (goldens)", () => {
  for (const name of REAL_SESSIONS) {
    it(`${name}: reproduces pi's buildSessionContext + convertToLlm exactly`, async function () {
      needFixtures(this);
      const gold = JSON.parse(readFileSync(fixture(`${name}.context.json`), "utf8"));
      const session = await Session.load(fixture(`${name}.jsonl`));
      assert.equal(session.metas.length, gold.entryCount);
      const ctx = buildContext(session);
      assert.equal(ctx.thinkingLevel, gold.thinkingLevel);
      assert.deepEqual(ctx.model, gold.model);
      const ours = ctx.parts.map((p) => strip(p.llm));
      assert.equal(ours.length, gold.messages.length);
      for (let i = 0; i < ours.length; i++) assert.deepEqual(ours[i], gold.messages[i], `message ${i} differs`);
    });
  }

  it("loading twice gives the same v1 ids, and loading never writes the file", async function () {
    needFixtures(this);
    const file = fixture("before-compaction.jsonl");
    const before = readFileSync(file);
    const a = await Session.load(file);
    const b = await Session.load(file);
    assert.deepEqual(a.metas.map((m) => m.id), b.metas.map((m) => m.id));
    assert.equal(new Set(a.metas.map((m) => m.id)).size, a.metas.length);
    assert.ok(readFileSync(file).equals(before));
  });
});
