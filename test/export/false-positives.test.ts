import { strict as assert } from "node:assert";
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { openSession } from "../../src/core/formats/registry";
import { FORMATS } from "../../src/core/formats/registry";
import { createRedactor } from "../../src/core/export/redact/create-redactor";
import { sessionJson } from "../../src/core/export/json";
import { passThroughRedactor } from "../../src/core/export/redactor";
import { sharedFolderGuard } from "../helpers/fixtures";
import { formatFixtures } from "../helpers/format-fixtures";

const SHARED = resolve(join(process.cwd(), "..", "shared", "fixtures"));
const need = sharedFolderGuard("export false-positive", SHARED, "(none)");
const ROOTS = [SHARED, join(process.cwd(), "test", "fixtures")];

/** Ids and hashes a session holds: uuids, git and content hashes (40 and 64 hex), the values an export must keep. */
const KEEP = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b|\b[0-9a-f]{40}\b|\b[0-9a-f]{64}\b/g;

describe("export redaction: false positives on the repository's real sessions", function () {
  this.timeout(300_000);

  it("every fixture session of every format exported whole (json --all): no replacement, every uuid and hash kept", async function () {
    need(this, "pi");
    const files = ROOTS.flatMap((root) => FORMATS.flatMap((f) => formatFixtures(root, f.id)));
    assert.ok(files.length >= 30, `${files.length} fixture sessions`);
    let bytes = 0;
    let exported = 0;
    let kept = 0;
    const hits: string[] = [];
    for (const file of files) {
      let session;
      try {
        session = await openSession(file);
      } catch {
        continue; // A fixture of a bad file: the format tests cover it.
      }
      exported++;
      bytes += statSync(file).size;
      const redactor = createRedactor();
      const out = JSON.stringify(await sessionJson(session, redactor, { all: true, redacted: true }));
      for (const r of redactor.report().rules) hits.push(`${file}: ${r.rule} x${r.count}`);
      // The ids and hashes of the file that reach the export unredacted must reach it redacted too.
      const plain = JSON.stringify(await sessionJson(session, passThroughRedactor(), { all: true, redacted: false }));
      for (const id of new Set(readFileSync(file, "utf8").match(KEEP) ?? [])) {
        if (!plain.includes(id)) continue;
        kept++;
        assert.ok(out.includes(id), `${file}: ${id} was redacted`);
      }
    }
    // The measured rate, for the report (docs and the lead): replacements per MB of real session.
    console.log(`      false positives: ${hits.length} rule hit(s) in ${exported} sessions, ${(bytes / 1e6).toFixed(1)} MB; ${kept} uuids/hashes checked and kept`);
    assert.ok(kept > 500, `only ${kept} ids and hashes were checked`);
    assert.deepEqual(hits, []);
  });
});
