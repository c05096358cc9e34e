import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { Session } from "../../src/core/formats/pi/pi-session";
import { fixture, needFixtures, REAL_SESSIONS } from "../helpers/fixtures";
import { refContext, refLoad } from "../helpers/reference-context";

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

  for (const name of REAL_SESSIONS) {
    it(`${name}: every entry taken as the leaf agrees with the naive reference implementation`, async function () {
      needFixtures(this);
      const file = fixture(`${name}.jsonl`);
      const session = await Session.load(file);
      const ref = refLoad(file);
      for (const m of session.metas) {
        const ours = buildContext(session, m.id);
        const theirs = refContext(ref, m.id);
        assert.deepEqual(ours.parts.map((p) => p.llm), theirs.messages, `leaf ${m.id}`);
        assert.deepEqual(ours.model, theirs.model);
        assert.equal(ours.thinkingLevel, theirs.thinkingLevel);
      }
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
