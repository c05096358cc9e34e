import assert from "node:assert/strict";
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync, appendFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ENTRY_KINDS } from "../../src/core/session/entry-kinds";
import { MemorySession } from "../../src/core/session/memory-session";
import { detectFormat, FORMATS, formatOf, openSession, readFirstLines } from "../../src/core/formats/registry";
import type { SessionFormat } from "../../src/core/session/session-format";
import type { SessionReader } from "../../src/core/session/session-reader";
import { tempDir } from "../helpers/session-builder";
import { formatFixtures } from "../helpers/format-fixtures";

/**
 * The contract every format keeps, run over the small fixtures each format keeps in
 * test/fixtures/<format id>/ (in the repo: these run on any clone). A format is added
 * with its folder, its fixtures and one registry line; this suite then holds it to the
 * same rules as pi.
 */
const FIXTURES = join(process.cwd(), "test", "fixtures");
const PART_KINDS = new Set(["summary", "user", "assistant", "thinking", "toolCall", "toolResult", "image", "custom", "bash"]);

const fixturesOf = (f: SessionFormat): string[] => formatFixtures(FIXTURES, f.id);

/** The entries the format loads for a leaf: its chain when it has one, else the tree's path. */
function loadedPath(f: SessionFormat, s: SessionReader, leaf: number): number[] {
  return leaf < 0 ? [] : f.chain ? f.chain(s, leaf) : s.tree.path(leaf);
}

/** The file's lines as records, for the in-memory reader (a header line is left to it as a line number). */
function records(file: string, f: SessionFormat): { recs: Array<Record<string, unknown>>; firstLine: number; version: number } {
  const lines = readFileSync(file, "utf8").split("\n").filter((l) => l.trim());
  const objs = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  if (!f.index.header) return { recs: objs, firstLine: 0, version: 0 };
  const got = f.index.header.accept(objs[0], 1);
  assert.ok(typeof got !== "string", `${file}: header refused: ${String(got)}`);
  return { recs: objs.slice(1), firstLine: 1, version: got.version };
}

/** The identity fields of each format's lines, to make a new line from an old one. */
const ID_FIELDS: Record<string, [string, string]> = { pi: ["id", "parentId"], "seed-000": ["id", "parentId"], clawdcode: ["uuid", "parentUuid"] };

describe("format contract: every registered format on its own fixtures", () => {
  it("every format has fixtures in the repo", () => {
    // A format whose sessions are rows of a database (addresses, not files: OpenCode) keeps
    // databases, checked by its own suite (test/formats/opencode/, goldens included).
    for (const f of FORMATS.filter((x) => !x.addresses)) assert.ok(fixturesOf(f).length > 0, `no fixtures in test/fixtures/${f.id}/`);
  });

  for (const f of FORMATS) {
    describe(`${f.id}`, () => {
      for (const file of fixturesOf(f)) {
        const name = `${f.id}/${basename(file)}`;

        it(`${name}: detected as ${f.id} by its first lines, by no other format before it`, () => {
          const first = readFirstLines(file);
          assert.ok(f.detect(first), "its own format must claim it");
          assert.equal(detectFormat(first).id, f.id);
        });

        it(`${name}: loads through the registry without problems and without writing`, async () => {
          const before = readFileSync(file);
          const mtime = statSync(file).mtimeMs;
          const s = await openSession(file);
          assert.equal(s.formatId, f.id);
          assert.equal(formatOf(s), f);
          assert.deepEqual(s.problems.map((p) => p.message), []);
          assert.ok(s.metas.length > 0);
          assert.ok(readFileSync(file).equals(before));
          assert.equal(statSync(file).mtimeMs, mtime);
          const info = f.info(s);
          assert.equal(typeof info.id, "string");
          assert.ok(info.id.length > 0);
          assert.equal(typeof info.cwd, "string");
        });

        it(`${name}: every entry is described in the neutral vocabulary`, async () => {
          const s = await openSession(file);
          for (let i = 0; i < s.metas.length; i++) {
            const d = f.describe(s, i);
            assert.ok((ENTRY_KINDS as readonly string[]).includes(d.kind), `entry ${s.metas[i].id}: kind ${d.kind}`);
            assert.ok(d.label.length > 0);
            assert.ok(["user", "conversation", "all"].includes(d.visibility));
          }
        });

        it(`${name}: the context of every leaf comes from entries on its path (the format's chain, if it has one), in that order`, async () => {
          const s = await openSession(file);
          const leaf = f.defaultLeaf(s);
          assert.ok(leaf >= 0 && leaf < s.metas.length, "default leaf in range");
          for (let i = 0; i < s.metas.length; i++) {
            const ctx = f.context(s, i);
            assert.equal(ctx.leafId, s.metas[i].id);
            const order = loadedPath(f, s, i).map((k) => s.metas[k].id);
            const ids = new Set(order);
            if (f.chain) assert.deepEqual([...new Set(f.chain(s, i))].length, order.length, `leaf ${s.metas[i].id}: an entry twice in its chain`);
            let last = -1;
            for (const m of ctx.messages) {
              assert.ok(ids.has(m.entryId), `leaf ${s.metas[i].id}: message from ${m.entryId}, not on the path`);
              assert.ok(PART_KINDS.has(m.kind), `part kind ${m.kind}`);
              assert.ok(m.message && typeof m.message === "object");
              const at = order.indexOf(m.entryId);
              // A summary may stand before what it kept; everything else keeps path order.
              if (m.kind !== "summary") {
                assert.ok(at >= last || ctx.messages.some((x) => x.kind === "summary"), `leaf ${s.metas[i].id}: ${m.entryId} out of order`);
                last = Math.max(last, at);
              }
            }
          }
          assert.deepEqual(f.context(s, -1).messages, []);
        });

        it(`${name}: the in-memory reader, fed the same records, gives the same tree and contexts`, async () => {
          const s = await openSession(file);
          if (f.replayed) {
            // Its lines are replayed into entries (f.replayed says why): the reader is the
            // in-memory one already, so the check is that it is, and that a second read agrees.
            assert.ok(s instanceof MemorySession, `${f.id} says its records are replayed, yet its reader is not the in-memory one`);
            const again = await openSession(file);
            assert.deepEqual(again.metas.map((x) => [x.id, x.parentId, x.type, x.line]), s.metas.map((x) => [x.id, x.parentId, x.type, x.line]));
            assert.deepEqual(f.context(again, f.defaultLeaf(again)), f.context(s, f.defaultLeaf(s)));
            return;
          }
          const { recs, firstLine, version } = records(file, f);
          const m = new MemorySession(f.id, f.index, recs, file, firstLine, version);
          assert.deepEqual(m.metas.map((x) => [x.id, x.parentId, x.type, x.line]), s.metas.map((x) => [x.id, x.parentId, x.type, x.line]));
          for (let i = 0; i < s.metas.length; i++) {
            assert.equal(m.tree.parent[i], s.tree.parent[i]);
            assert.deepEqual(f.describe(m, i), f.describe(s, i));
          }
          // Formats whose context needs more than the reader (pi's header) may refuse; then nothing is compared.
          let memCtx;
          try {
            memCtx = f.context(m, f.defaultLeaf(m));
          } catch {
            memCtx = undefined;
          }
          if (memCtx) assert.deepEqual(memCtx, f.context(s, f.defaultLeaf(s)));
        });

        it(`${name}: a bad line is reported with its number and the rest still reads`, async () => {
          const dir = tempDir();
          const copy = join(dir, basename(file));
          copyFileSync(file, copy);
          const lines = readFileSync(copy, "utf8").split("\n").filter((l) => l.trim()).length;
          appendFileSync(copy, "{not json\n");
          const s = await openSession(copy);
          assert.equal(s.formatId, f.id);
          const bad = s.problems.find((p) => p.line === lines + 1);
          assert.ok(bad, `no problem on line ${lines + 1}: ${JSON.stringify(s.problems)}`);
          assert.match(bad.message, new RegExp(`^line ${lines + 1}: `));
          const clean = await openSession(file);
          assert.equal(s.metas.length, clean.metas.length);
        });

        it(`${name}: append: a new line on the default leaf becomes the new default leaf; a used id or an unknown parent appends nothing`, async () => {
          if (!f.writer?.append) {
            assert.equal(f.writer?.append, undefined);
            return;
          }
          const fields = ID_FIELDS[f.id];
          assert.ok(fields, `the contract test needs ${f.id}'s identity fields`);
          const dir = tempDir();
          const copy = join(dir, basename(file));
          copyFileSync(file, copy);
          const s = await openSession(copy);
          const leaf = f.defaultLeaf(s);
          const leafId = s.metas[leaf].id;
          const fresh = { ...structuredClone(s.entryAt(leaf)), [fields[0]]: "contract-new-1", [fields[1]]: leafId };
          await f.writer.append(s, [fresh]);
          const again = await openSession(copy);
          assert.deepEqual(again.problems, []);
          assert.equal(again.metas.length, s.metas.length);
          assert.equal(again.metas[f.defaultLeaf(again)].id, "contract-new-1");
          assert.equal(again.metas[f.defaultLeaf(again)].parentId, leafId);
          const bytes = readFileSync(copy);
          await assert.rejects(f.writer.append(again, [fresh]), /already used/);
          await assert.rejects(f.writer.append(again, [{ ...fresh, [fields[0]]: "contract-new-2", [fields[1]]: "no-such-entry" }]), /parent/);
          assert.ok(readFileSync(copy).equals(bytes), "a refused append writes nothing");
        });

        it(`${name}: a fork at every entry is a new file of the same format with the same context there; the source is untouched`, async function () {
          if (!f.writer?.capabilities.fork) {
            assert.equal(f.writer?.capabilities.fork ?? false, false);
            return;
          }
          const dir = tempDir();
          const copy = join(dir, basename(file));
          copyFileSync(file, copy);
          const before = readFileSync(copy);
          const s = await openSession(copy);
          for (let i = 0; i < s.metas.length; i++) {
            const id = s.metas[i].id;
            const res = f.writer.fork(s, id, { dir });
            assert.notEqual(res.path, copy);
            const forked = await openSession(res.path);
            assert.equal(forked.formatId, f.id);
            assert.deepEqual(forked.problems, []);
            const want = f.context(s, i).messages.map((m) => m.message);
            const got = f.context(forked, f.defaultLeaf(forked)).messages.map((m) => m.message);
            assert.deepEqual(got, want, `fork at ${id}`);
          }
          assert.ok(readFileSync(copy).equals(before), "the source must stay byte-identical");
          assert.equal(readdirSync(dir).filter((n) => n.startsWith(".")).length, 0, "no temp file left");
        });
      }
    });
  }
});
