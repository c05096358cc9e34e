import { strict as assert } from "node:assert";
import { openSession } from "../../src/core/formats/registry";
import { DETAILS_PER_CHUNK, DETAILS_SCRIPT_PREFIX, INDEX_SCRIPT_ID, indexInRuns, type PageDetails, type PageIndex, toRuns } from "../../src/core/export/html-data";
import { renderHtmlExport } from "../../src/explorer/html-export";
import type { RedactionPlace, Redactor } from "../../src/core/export/redactor";
import { passThroughRedactor } from "../../src/core/export/redactor";
import { HOSTILE, writeHostileSession } from "../helpers/hostile-session";
import { assistant, entry, header, tempDir, toolResult, user, writeSession } from "../helpers/session-builder";

/** A redactor that replaces SECRET-... words and records every place it was given. */
function recordingRedactor(): Redactor & { places: RedactionPlace[] } {
  const places: RedactionPlace[] = [];
  let total = 0;
  return {
    places,
    redact(text, place) {
      places.push(place);
      return text.replace(/SECRET-[A-Za-z0-9]+/g, () => {
        total++;
        return "[REDACTED:test]";
      });
    },
    report: () => ({ total, rules: total ? [{ rule: "test", description: "test secret", count: total, entryIds: [] }] : [] }),
  };
}

/** The JSON of a data block of the page, as the page reads it. */
function block(html: string, id: string): unknown {
  const m = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  assert.ok(m, `no data block ${id}`);
  return JSON.parse(m[1]);
}

function secretSession(): string {
  const dir = tempDir();
  return writeSession(
    [
      header({ cwd: "/home/dev/SECRET-cwd" }),
      user("u1", null, "my key is SECRET-user1 and </script><script>alert(1)</script>"),
      assistant("a1", "u1", "reading SECRET-answer", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "/home/dev/SECRET-path/a.txt" } }] }),
      toolResult("t1", "a1", "c1", "read", `out SECRET-output ${"z".repeat(60000)} SECRET-tail`),
      entry("label", "l1", "t1", { targetId: "u1", label: "label SECRET-label" }),
      user("u2", "u1", "a side branch"),
      entry("session_info", "s1", "l1", { name: "name SECRET-name" }),
    ],
    { dir },
  );
}

describe("HTML export (src/core/export/html.ts)", () => {
  it("is one page with a CSP that allows no source, the script and style by hash only", async () => {
    const s = await openSession(secretSession());
    const html = await renderHtmlExport(s, { redactor: passThroughRedactor() });
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)?.[1].replace(/&#39;|&quot;/g, "'") ?? "";
    assert.match(csp, /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; font-src data:; img-src data:$/);
    // No address of any kind the page could fetch in its markup: no src=, no href=, no url( but data: ones.
    const markup = html.replace(/<script>[^]*?<\/script>/g, "").replace(/<style[^>]*>[^]*?<\/style>/g, "");
    assert.doesNotMatch(markup, /\s(src|href)=/i);
    assert.doesNotMatch(html.replace(/url\("?(data:|#)[^)]*\)/g, ""), /url\(/);
    assert.equal((html.match(/<script>/g) ?? []).length, 1, "one executable script");
    assert.equal((html.match(/<style[ >]/g) ?? []).length, 1, "one stylesheet");
  });

  it("no session text can close its data block: every < in the JSON is \\u003c", async () => {
    const s = await openSession(secretSession());
    const html = await renderHtmlExport(s, { redactor: passThroughRedactor() });
    assert.ok(!html.includes("</script><script>alert(1)"), "the user's </script> reached the page raw");
    const d = block(html, `${DETAILS_SCRIPT_PREFIX}0`) as PageDetails[];
    assert.ok(JSON.stringify(d).includes("</script><script>alert(1)</script>"), "the text itself is kept, escaped");
  });

  it("every string passes the redactor: no secret is left anywhere in the page", async () => {
    const s = await openSession(secretSession());
    const r = recordingRedactor();
    const html = await renderHtmlExport(s, { redactor: r });
    assert.doesNotMatch(html, /SECRET-/);
    assert.ok(r.report().total >= 8, `only ${r.report().total} replacements`);
    // The places name the entries the text belongs to.
    assert.ok(r.places.some((p) => p.entryId === "t1" && p.field === "text"));
    assert.ok(r.places.some((p) => p.field === "label"));
    // The cut tool output's whole text is carried (Show all), redacted too.
    const t1 = (block(html, `${DETAILS_SCRIPT_PREFIX}0`) as PageDetails[])[2];
    assert.ok(t1.full && Object.values(t1.full).some((b) => b.text?.endsWith("[REDACTED:test]")), "the whole output is in the page");
  });

  it("the index holds the tree, its labels and the branches; a branch export holds only its path", async () => {
    const s = await openSession(secretSession());
    const all = block(await renderHtmlExport(s, { all: true, redactor: passThroughRedactor() }), INDEX_SCRIPT_ID) as PageIndex;
    assert.deepEqual(all.ids, ["u1", "a1", "t1", "l1", "u2", "s1"]);
    assert.deepEqual(all.parent, [-1, 0, 1, 2, 0, 3]);
    assert.deepEqual(all.tags, [[0, "label SECRET-label"]]);
    assert.ok(all.branches.some((b) => all.ids[b.leaf] === "u2") && all.branches.some((b) => all.ids[b.leaf] === "s1"));
    assert.equal(all.init.session.readOnly, true);
    const one = block(await renderHtmlExport(s, { leafId: "u2", redactor: passThroughRedactor() }), INDEX_SCRIPT_ID) as PageIndex;
    assert.deepEqual(one.ids, ["u1", "u2"]);
    assert.deepEqual(one.parent, [-1, 0]);
    assert.deepEqual(one.init.bars.map((b) => b.leafId), ["u2"]);
    await assert.rejects(renderHtmlExport(s, { leafId: "nope", redactor: passThroughRedactor() }), /no entry with id "nope" to export the branch of/);
  });

  it("details come in chunks of DETAILS_PER_CHUNK entries, one per script", async () => {
    const lines = [header()];
    for (let k = 0; k < DETAILS_PER_CHUNK + 3; k++) lines.push(user(`e${k}`, k ? `e${k - 1}` : null, `m${k}`));
    const s = await openSession(writeSession(lines, { dir: tempDir() }));
    const html = await renderHtmlExport(s, { redactor: passThroughRedactor() });
    const idx = block(html, INDEX_SCRIPT_ID) as PageIndex;
    assert.equal(idx.detailChunks, 2);
    assert.equal((block(html, `${DETAILS_SCRIPT_PREFIX}1`) as PageDetails[])[2].d.id, `e${DETAILS_PER_CHUNK + 2}`);
  });

  it("a hostile session's page keeps its text inert inside the data blocks", async () => {
    const { file } = writeHostileSession(tempDir());
    const html = await renderHtmlExport(await openSession(file), { redactor: passThroughRedactor() });
    const outside = html.replace(/<script type="application\/json"[^>]*>[^<]*<\/script>/g, "");
    assert.ok(!outside.includes(HOSTILE.html) && !html.includes(HOSTILE.script));
  });

  it("a timeline's path is written as runs of consecutive positions, and found in them", () => {
    const path = [0, 1, 2, 3, 7, 8, -1, -1, 12];
    const runs = toRuns(path);
    assert.deepEqual(runs, [0, 4, 7, 2, -1, 1, -1, 1, 12, 1]);
    for (const p of [0, 3, 7, 8, 12, 5, 99]) assert.equal(indexInRuns(runs, p), path.indexOf(p), `position ${p}`);
  });
});
