import { strict as assert } from "node:assert";
import { FIRST_ROWS, FIRST_SCRIPT_ID, INDEX_SCRIPT_ID, type PageFirst, type PageIndex } from "../../src/core/export/html-data";
import { passThroughRedactor } from "../../src/core/export/redactor";
import { openSession } from "../../src/core/formats/registry";
import { renderHtmlExport } from "../../src/explorer/html-export";
import { StaticHost } from "../../src/explorer/page-host";
import type { HostToWebview, ReplyResults } from "../../src/protocol";
import { writeHostileSession } from "../helpers/hostile-session";
import { assistant, header, tempDir, user, writeSession } from "../helpers/session-builder";

// Issue 30: a 100 MB session's page must show its first rows in under 2 s; its index is
// megabytes of JSON. The page carries a first screen before its script (the init message and
// the first rows), drawn before the browser has read the index: it must be what the page's
// own host answers once it has the index, or the rows would change under the reader.

function block(html: string, id: string): { at: number; value: unknown } {
  const m = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  assert.ok(m, `no data block ${id}`);
  return { at: m.index, value: JSON.parse(m[1]) };
}

/** A session of more rows than the first screen holds, with branches. */
function longSession(): string {
  const lines: Array<Record<string, unknown>> = [header()];
  let parent: string | null = null;
  for (let k = 0; k < 200; k++) {
    lines.push(user(`u${k}`, parent, `question ${k}`), assistant(`a${k}`, `u${k}`, `answer ${k}`));
    if (k % 50 === 10) lines.push(user(`side${k}`, `u${k}`, `a side branch at ${k}`));
    parent = `a${k}`;
  }
  return writeSession(lines, { dir: tempDir() });
}

describe("HTML export: the first screen before the index", () => {
  for (const [name, file] of [
    ["a long session with branches", longSession],
    ["the hostile session", () => writeHostileSession(tempDir()).file],
  ] as const) {
    it(`${name}: the first screen comes before the script, the index after it, and it is what the page's host answers`, async () => {
      const html = await renderHtmlExport(await openSession(file()), { all: true, redactor: passThroughRedactor() });
      const first = block(html, FIRST_SCRIPT_ID);
      const index = block(html, INDEX_SCRIPT_ID);
      const script = html.indexOf("<script>");
      assert.ok(first.at < script && script < index.at, "first screen, script, index: in that order");
      const sent: HostToWebview[] = [];
      const host = new StaticHost(index.value as PageIndex, () => undefined, (m) => sent.push(m));
      host.receive({ type: "ready" });
      const screen = first.value as PageFirst;
      // As the page holds them: JSON (a field set to undefined is no field).
      const asJson = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
      assert.deepEqual(screen.init, asJson(sent[0]));
      const rows = (host.answer({ type: "rows", requestId: 1, start: 0, count: FIRST_ROWS }) as ReplyResults["rows"]).rows;
      assert.deepEqual(screen.rows, asJson(rows));
      assert.equal(screen.rows.length, Math.min(FIRST_ROWS, screen.init.rowCount));
    });
  }
});
