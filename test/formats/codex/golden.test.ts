import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { renderFormatContext } from "../../../src/core/context/format-context";
import { openSession } from "../../../src/core/formats/registry";

/** Rollouts recorded with the real codex-cli 0.169.0 and the `input` it sent on resume (scripts/codex/record.mjs). */
const DIR = join(process.cwd(), "test", "fixtures", "codex");

interface Golden {
  rollout: string;
  input: unknown[];
}

/** Recorded goldens, then the hand-made older-format ones (scripts/codex/old-format.mjs, section 5 by the book). */
const goldens = ["goldens", "handmade/goldens"].flatMap((d) =>
  readdirSync(join(DIR, d))
    .filter((n) => n.endsWith(".json"))
    .map((n) => [`${d}/${n}`, JSON.parse(readFileSync(join(DIR, d, n), "utf8")) as Golden] as const),
);

describe("Codex goldens: the native context is the input codex-cli 0.169.0 sent when it resumed the rollout", () => {
  it("there are goldens for a plain rollout, a compaction, a fork, a .zst and the hand-made older formats", () => {
    assert.deepEqual(goldens.map(([n]) => n).sort(), ["goldens/compact.json", "goldens/fork.json", "goldens/main-zst.json", "goldens/main.json", "handmade/goldens/old-copied-fork.json", "handmade/goldens/old-parent.json", "handmade/goldens/old-rollback.json"]);
  });
  for (const [name, g] of goldens) {
    it(`${name}: item for item, keys in Codex's order`, async () => {
      const session = await openSession(join(DIR, g.rollout));
      assert.equal(session.formatId, "codex");
      const got = renderFormatContext(session, session.metas.length - 1, "native") as { messages: unknown[] };
      // Serialized: key order is part of what Codex sends.
      assert.equal(JSON.stringify(got.messages), JSON.stringify(g.input));
    });
  }
});
