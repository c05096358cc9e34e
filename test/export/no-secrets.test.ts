import { strict as assert } from "node:assert";
import { openSession } from "../../src/core/formats/registry";
import { createRedactor } from "../../src/core/export/redact/create-redactor";
import { renderHtmlExport } from "../../src/explorer/html-export";
import { sessionJson } from "../../src/core/export/json";
import { sessionMarkdown } from "../../src/core/export/markdown";
import { passThroughRedactor, type Redactor } from "../../src/core/export/redactor";
import type { SessionReader } from "../../src/core/session/session-reader";
import { leakedKinds, seededSessions } from "./seeded-sessions";

/** Each export format, as text (one branch: the default leaf's, or the whole tree). */
const EXPORTS: Record<string, (s: SessionReader, r: Redactor, all: boolean) => Promise<string>> = {
  html: (s, r, all) => renderHtmlExport(s, all ? { all: true, redactor: r } : { leafId: s.metas[s.format.defaultLeaf(s)].id, redactor: r }),
  md: (s, r, all) => sessionMarkdown(s, r, { all }),
  json: async (s, r, all) => JSON.stringify(await sessionJson(s, r, { all, redacted: true })),
};

describe("export: no seeded secret survives redaction, in any format, from any place", () => {
  for (const seeded of seededSessions()) {
    for (const [name, render] of Object.entries(EXPORTS)) {
      for (const all of [false, true]) {
        it(`${seeded.format} as ${name}${all ? " (--all)" : ""}: every secret is in the unredacted export and none in the redacted one`, async () => {
          const s = await openSession(seeded.file);
          assert.equal(s.format.id, seeded.format);
          // The places carry the secrets to the output: without redaction every kind shows.
          const plain = await render(s, passThroughRedactor(), all);
          assert.deepEqual(leakedKinds(plain, seeded.kinds).length, seeded.kinds.length, "a kind never reached the export: the fixture does not test it");
          const redactor = createRedactor({ home: "/home/ana", user: "ana" });
          const out = await render(s, redactor, all);
          assert.deepEqual(leakedKinds(out, seeded.kinds), []);
          assert.ok(!out.includes("/home/ana"), "the home folder is replaced");
          assert.ok(redactor.report().total > seeded.kinds.length, "the report counts the replacements");
        });
      }
    }
  }

  it("the seeded places reach the export: sub-agent transcripts (own file and inline), compaction summaries, labels", async () => {
    const [pi, claude] = seededSessions();
    const md = await sessionMarkdown(await openSession(claude.file), createRedactor(), {});
    assert.match(md, /Sub-agent: Check \\\[REDACTED:[\w-]+\\\] \(Explore\) · 4 entries/);
    assert.match(md, /Sub-agent: Inline helper \(general-purpose\) · 2 entries/);
    assert.match(md, /sub answer/);
    assert.match(md, /⟲ Compaction/);
    const piMd = await sessionMarkdown(await openSession(pi.file), createRedactor(), { all: true });
    assert.match(piMd, /🏷 \\\[REDACTED:/);
    assert.match(piMd, /Summary of the compacted part/);
    assert.match(piMd, /## Branch 2/);
  });
});
