import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ENTRY_KINDS } from "../../src/core/session/entry-kinds";
import { FORMATS, openSession } from "../../src/core/formats/registry";
import type { SessionFormat } from "../../src/core/session/session-format";
import { formatFixtures } from "../helpers/format-fixtures";

/**
 * Each format's search hooks (what `ase search` reads of a line) agree with its reader on
 * every fixture in test/fixtures/<format id>/: the same lines are entries, with the same
 * ids (pi v1's from line numbers included), and every text part has a neutral kind.
 */
const FIXTURES = join(process.cwd(), "test", "fixtures");

const fixturesOf = (f: SessionFormat): string[] => formatFixtures(FIXTURES, f.id);

describe("format contract: search hooks agree with the reader", () => {
  it("every format has search hooks", () => {
    assert.deepEqual(FORMATS.filter((f) => !f.search).map((f) => f.id), []);
  });

  for (const f of FORMATS) {
    for (const file of fixturesOf(f)) {
      it(`${f.id}/${basename(file)}: the same entries, ids and neutral kinds`, async () => {
        const hooks = f.search;
        assert.ok(hooks);
        const session = await openSession(file);
        assert.equal(session.formatId, f.id);
        const lines = readFileSync(file, "utf8").split("\n");
        const firstObject = lines.find((l) => l.trim());
        const header = f.index.header?.accept(firstObject ? JSON.parse(firstObject) : undefined, 1);
        const version = header && typeof header === "object" ? header.version : 0;
        const fromHooks = new Map<number, string>();
        let parts = 0;
        lines.forEach((line, k) => {
          if (!line.trim()) return;
          const e = hooks.entry(JSON.parse(line) as Record<string, unknown>, { lineNo: k + 1, version });
          if (!e) return;
          fromHooks.set(k + 1, e.id);
          for (const p of e.parts) {
            assert.ok((ENTRY_KINDS as readonly string[]).includes(p.kind), `line ${k + 1}: kind ${p.kind}`);
            assert.ok(p.text.length > 0, `line ${k + 1}: empty part`);
            parts++;
          }
        });
        const fromReader = new Map(session.metas.map((m) => [m.line, m.id]));
        if (f.replayed) {
          // Replayed records (f.replayed says why): a line may hold a message the reader
          // keeps at another line, or copies as id#n on another branch. Every id the hooks
          // find is one of the reader's messages, and most of its messages are searched.
          const readerIds = new Set(session.metas.map((m) => m.id.replace(/#\d+$/, "")));
          for (const [line, id] of fromHooks) assert.ok(readerIds.has(id), `line ${line}: the search finds ${id}, which the reader does not hold`);
          const searchedIds = new Set(fromHooks.values());
          const unsearched = session.metas.filter((m) => !searchedIds.has(m.id.replace(/#\d+$/, "")) && session.format.describe(session, session.metas.indexOf(m)).kind !== "injected");
          assert.ok(unsearched.length <= session.metas.length / 2, `most of the reader's messages are never searched: ${unsearched.map((m) => m.id).slice(0, 5).join(", ")}`);
          // A stub file (a start that wrote only its session context) holds nothing to search.
          const conversation = session.metas.some((m, i) => session.format.describe(session, i).kind !== "injected");
          if (conversation) assert.ok(parts > 0, "some text to search");
          else assert.equal(parts, 0, "a stub's lines hold no text the reader shows");
          return;
        }
        assert.deepEqual(fromHooks, fromReader);
        assert.ok(parts > 0, "some text to search");
      });
    }
  }
});
