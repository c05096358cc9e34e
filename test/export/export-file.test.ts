import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRedactor } from "../../src/core/export/redact/create-redactor";
import { openSession } from "../../src/core/formats/registry";
import { NewFileError } from "../../src/core/store/atomic-file";
import { type ExportFormatId, exportReport, writeExport, writeExportFile } from "../../src/explorer/export-file";
import { withFaults } from "../helpers/faulty-fs";
import { tempDir } from "../helpers/session-builder";
import { seededSessions } from "./seeded-sessions";

// The road VS Code's Export Session writes by (issue 30): a first pass that only counts
// what the redactor replaces (the report the user confirms), then the file written as it
// is made, whole or not at all.

const USER = { home: "/home/ana", user: "ana" };
const FORMATS: ExportFormatId[] = ["html", "md", "json"];

describe("export file: report first, then the file streamed and atomic", () => {
  it("the first pass's report is the report of the written file, and the file is the export made whole (each format, a branch or all)", async () => {
    const seeded = seededSessions()[0];
    const s = await openSession(seeded.file);
    const leaf = s.metas[s.format.defaultLeaf(s)].id;
    for (const format of FORMATS) {
      for (const leafId of [undefined, leaf]) {
        const report = await exportReport(s, format, { leafId, redactor: createRedactor(USER), redacted: true });
        assert.ok(report.total > 0, `${format}: the seeded secrets were counted`);
        const out = join(tempDir(), `x.${format}`);
        const redactor = createRedactor(USER);
        const bytes = await writeExportFile(s, format, { leafId, redactor, redacted: true }, out);
        assert.deepEqual(redactor.report(), report, `${format} ${leafId ?? "all"}: the report shown is not the one of the file written`);
        const pieces: string[] = [];
        await writeExport(s, format, { leafId, redactor: createRedactor(USER), redacted: true }, (p) => void pieces.push(p));
        assert.ok(pieces.length >= 5, `${format}: made whole, not in pieces`);
        assert.ok(readFileSync(out).equals(Buffer.from(pieces.join(""))), `${format} ${leafId ?? "all"}: the file differs from the export`);
        assert.equal(bytes, readFileSync(out).length);
      }
    }
  });

  it("a write that fails half way leaves no file and no temp file, and says why", async () => {
    const s = await openSession(seededSessions()[0].file);
    for (const format of FORMATS) {
      const dir = tempDir();
      const out = join(dir, `x.${format}`);
      const err = await withFaults({ match: (p) => p.includes(`x.${format}`), writeLimit: 2000, writeError: "ENOSPC" }, () =>
        writeExportFile(s, format, { redactor: createRedactor(USER), redacted: true }, out).then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
      assert.ok(err instanceof NewFileError, `${format}: no NewFileError (${String(err)})`);
      assert.match(err.message, /ENOSPC/);
      assert.ok(!existsSync(out), `${format}: a half file was left`);
      assert.deepEqual(readdirSync(dir), [], `${format}: a temp file was left`);
    }
  });
});
