import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatFolderNames, sourceFiles } from "../helpers/source-files";

/**
 * The VS Code host and the explorer work through the format seam and the LiveSession
 * interface: they import no format's folder and name no reader class. A file that does
 * fails here with its line. The allowance lists what is left for the format hooks
 * (issue 26: compaction and exact counting move into pi's SessionFormat); it only shrinks.
 */
const ROOT = process.cwd();
const FORMAT_FOLDERS = formatFolderNames(ROOT);
const STILL_ALLOWED = new Set<string>([]);

const sources = (dir: string) => sourceFiles(ROOT, dir);

/** Lines of a file that import from a format's folder or name the JSONL reader class. */
function offending(file: string, formats: readonly string[]): string[] {
  const found: string[] = [];
  const fromFormat = new RegExp(`from "(\\.\\./)+core/formats/(${formats.join("|")})/`);
  readFileSync(join(ROOT, file), "utf8").split("\n").forEach((line, k) => {
    if (fromFormat.test(line) || /\bJsonlSession\b/.test(line)) found.push(`${file}:${k + 1}: ${line.trim().slice(0, 140)}`);
  });
  return found;
}

describe("host seam: the panel, activate() and the explorer name no format and no reader class", () => {
  it("src/extension and src/explorer import no format's folder (but the allowance) and never name JsonlSession", () => {
    assert.ok(FORMAT_FOLDERS.includes("pi") && FORMAT_FOLDERS.length >= 4, `format folders: ${FORMAT_FOLDERS.join(", ")}`);
    const files = [...sources("src/extension"), ...sources("src/explorer")];
    assert.ok(files.length > 25, `only ${files.length} files found from ${ROOT}`);
    const found = files.flatMap((f) => offending(f, FORMAT_FOLDERS)).filter((hit) => !(STILL_ALLOWED.has(hit.split(":")[0]) && !hit.includes("JsonlSession")));
    assert.deepEqual(found, []);
  });

  it("the check itself finds a format import and the reader class", () => {
    const probe = (line: string) => new RegExp(`from "(\\.\\./)+core/formats/(${FORMAT_FOLDERS.join("|")})/`).test(line) || /\bJsonlSession\b/.test(line);
    assert.ok(probe(`import type { Session } from "../core/formats/pi/pi-session";`));
    assert.ok(probe(`import { x } from "../../core/formats/claude-code/format";`));
    assert.ok(probe(`if (s instanceof JsonlSession) return;`));
    assert.ok(!probe(`import { openSession } from "../core/formats/registry";`));
  });
});
