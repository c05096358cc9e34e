import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { jsonBlock, type HtmlSink, writeJsonBlock } from "../../src/core/export/html";
import { RowPool, unpackRows } from "../../src/core/export/html-data";
import { sessionMarkdown, writeSessionMarkdown } from "../../src/core/export/markdown";
import { passThroughRedactor } from "../../src/core/export/redactor";
import { Scrubber } from "../../src/core/export/scrubber";
import { openSession } from "../../src/core/formats/registry";
import type { SessionReader } from "../../src/core/session/session-reader";
import { HeapTrim } from "../../src/core/util/heap-trim";
import { ExplorerController } from "../../src/explorer/controller";
import { writeHtmlExport } from "../../src/explorer/html-export";
import { packDetails } from "../../src/explorer/page-details";
import { PageModel } from "../../src/explorer/page-model";
import { fixture } from "../helpers/fixtures";
import { writeHostileSession } from "../helpers/hostile-session";
import { tempDir } from "../helpers/session-builder";
import { seededSessions } from "./seeded-sessions";

// The exported page's model no longer holds the explorer's controller (a 100 MB session's
// export in less than twice the file's memory, issue 30): what it writes must still be what
// the controller answers the panel, header, bars, cost and every entry's details alike.

const READ_ONLY = "an exported page is read-only";

async function sessions(): Promise<SessionReader[]> {
  const files = [writeHostileSession(tempDir()).file, ...seededSessions().map((s) => s.file)];
  const real = fixture("before-compaction");
  if (existsSync(real)) files.push(real);
  return Promise.all(files.map((f) => openSession(f)));
}

/** The leaves to export a branch of: the default one, and a non-leaf entry (the selection runs on to its last child). */
function leafChoices(s: SessionReader): Array<string | undefined> {
  const def = s.format.defaultLeaf(s);
  const inner = s.metas.findIndex((_, i) => s.tree.childCount(i) > 0);
  return [undefined, ...(def >= 0 ? [s.metas[def].id] : []), ...(inner >= 0 ? [s.metas[inner].id] : [])];
}

describe("HTML export: the page model answers as the explorer's controller", () => {
  it("header, bars, cost and every entry's details equal the controller's (hostile, seeded and real sessions, whole tree or a branch)", async () => {
    for (const s of await sessions()) {
      for (const leafId of leafChoices(s)) {
        const what = `${s.path} ${leafId ?? "(whole tree)"}`;
        const model = new PageModel(s, leafId === undefined ? { redactor: passThroughRedactor() } : { leafId, redactor: passThroughRedactor() });
        const idx = await model.index();
        const ctl = new ExplorerController(s, { trusted: () => false, fileExists: () => false });
        const init = ctl.init();
        let bars = init.bars;
        if (leafId !== undefined) bars = ctl.answer({ type: "select", requestId: 0, id: leafId }).bars.filter((b) => b.leafId === leafId);
        const unavailable = { ...init.session.unavailable };
        for (const a of ["fork", "continue", "label", "previewContext", "compareContext", "compactionChange", "compact"] as const) unavailable[a] = READ_ONLY;
        const expected = { ...init, session: { ...init.session, unavailable, readOnly: true }, bars };
        delete (expected.session as Partial<typeof expected.session>).reading;
        const scrub = new Scrubber(passThroughRedactor());
        assert.deepEqual(JSON.parse(JSON.stringify(idx.init)), JSON.parse(JSON.stringify(scrub.deep(expected, undefined, "header"))), `${what}: the header differs`);
        for (let c = 0; c < model.detailChunks; c++) {
          const chunk = await model.detailsChunk(c);
          for (const [j, got] of chunk.entries()) {
            const id = idx.ids[c * 256 + j];
            const d = await ctl.answerAsync({ type: "details", requestId: 0, id });
            const want = packDetails(d, id, scrub, (k) => ctl.answer({ type: "details", requestId: 0, id, fullBlock: k }).blocks[k]);
            assert.deepEqual(got, want, `${what}: the details of ${id} differ`);
          }
        }
        ctl.dispose();
      }
    }
  });

  it("writes a data block in pieces that join to the block made whole", async () => {
    // A long array in an object member too (the index's pool of timeline points: {keys, rows}).
    const nested = { keys: ["a", "b"], rows: Array.from({ length: 10_000 }, (_, i) => [i, `<${i}>`, { i }]), skipped: undefined, small: { x: [1] } };
    const value = { a: "x</script><b>", long: Array.from({ length: 10_000 }, (_, i) => (i % 7 ? `<${i}>` : i % 3 ? null : { i })), skipped: undefined, empty: [], nested, n: 3 };
    const pieces: string[] = [];
    const sink: HtmlSink = (p) => void pieces.push(p);
    await writeJsonBlock("ase-index", value, sink);
    assert.ok(pieces.length > 3, "one piece only");
    assert.ok(Math.max(...pieces.map((p) => p.length)) < 60_000, "a piece holds a whole long array");
    assert.equal(pieces.join(""), jsonBlock("ase-index", value));
  });

  it("pools rows by their JSON: equal ones once, those sharing only a first value apart, any first value", () => {
    const pool = new RowPool(["id", "n", "c"]);
    const rows = [
      { id: "a", n: 1, c: { x: 1 } },
      { id: "a", n: 1, c: { x: 1 } },
      { id: "a", n: 2, c: { x: 1 } },
      { id: "a", n: 1, c: { x: 2 } },
      { n: 1 },
      { id: null, n: 1 },
      { id: 5, n: 1 },
      { id: "5", n: 1 },
      { id: { k: 1 }, n: 1 },
      { id: { k: 1 }, n: 1 },
    ];
    const at = rows.map((r) => pool.add(r));
    assert.deepEqual(at, [0, 0, 1, 2, 3, 3, 4, 5, 6, 6]);
    assert.equal(pool.packed.rows.length, new Set(rows.map((r) => JSON.stringify(["id", "n", "c"].map((k) => (r as Record<string, unknown>)[k] ?? null)))).size);
    assert.deepEqual(unpackRows(pool.packed, [2]), [{ id: "a", n: 1, c: { x: 2 } }]);
  });

  it("trims the heap once it has grown by the given amount, not before", () => {
    const trim = new HeapTrim(8 * 1024 * 1024);
    trim.maybe();
    assert.equal(trim.runs, 0, "collected with nothing grown");
    const held: string[][] = [];
    for (let k = 0; k < 40 && trim.runs === 0; k++) {
      held.push(Array.from({ length: 20_000 }, (_, i) => `${k}:${i}`.repeat(3)));
      trim.maybe();
    }
    assert.ok(trim.runs >= 1, "no collection after the heap grew by 8 MB");
    assert.ok(held.length > 0);
  });

  it("a stage's own growth: a trimmer of 1 GB collects once the heap has grown by the 8 MB a call asks", () => {
    const trim = new HeapTrim(1024 * 1024 * 1024);
    const held: string[][] = [];
    for (let k = 0; k < 40 && trim.runs === 0; k++) {
      held.push(Array.from({ length: 20_000 }, (_, i) => `${k}:${i}`.repeat(3)));
      trim.maybe(8 * 1024 * 1024);
    }
    assert.ok(trim.runs >= 1, "the call's growth was not used");
    assert.ok(held.length > 0);
  });

  it("collects only for a caller that asks (the CLI), never in the extension host, and the page is the same either way", async () => {
    const s = await openSession(writeHostileSession(tempDir()).file);
    const page = async (heapTrim?: HeapTrim) => {
      const pieces: string[] = [];
      await writeHtmlExport(s, { all: true, redactor: passThroughRedactor(), ...(heapTrim ? { heapTrim } : {}) }, (p) => void pieces.push(p));
      return pieces.join("");
    };
    // A trimmer that is due at every check: the model asks it as it goes.
    const eager = new HeapTrim(-1);
    const trimmed = await page(eager);
    assert.ok(eager.runs > 0, "the model never asked the trimmer");
    assert.equal(await page(), trimmed);
  });

  it("Markdown: the transcript asks a given trimmer (ase export's) as it goes, and is the same without one", async () => {
    const s = await openSession(writeHostileSession(tempDir()).file);
    const eager = new HeapTrim(-1);
    const pieces: string[] = [];
    await writeSessionMarkdown(s, passThroughRedactor(), { all: true, heapTrim: eager }, (p) => void pieces.push(p));
    assert.ok(eager.runs > 0, "the transcript never asked the trimmer");
    assert.equal(pieces.join(""), await sessionMarkdown(s, passThroughRedactor(), { all: true }));
  });
});
