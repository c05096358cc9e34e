import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { sourceFiles } from "../helpers/source-files";
import { join, relative, sep } from "node:path";

/**
 * pi's own entry types and message roles live in pi's folder only: everything else reads
 * sessions through the format seam (neutral kinds, the format's labels). A literal that
 * creeps back in elsewhere fails here, with its file and line.
 */
const ROOT = process.cwd();
const PI_FOLDER = join("src", "core", "formats", "pi") + sep;

/** pi's entry type and role names (the neutral vocabulary says "boundary" for a compaction; "toolResult", "custom", "label" are neutral too). */
const PI_ONLY = ["compaction", "branch_summary", "custom_message", "session_info", "model_change", "thinking_level_change", "bashExecution", "hookMessage", "compactionSummary", "branchSummary"];
/** pi's type names that are also plain words: banned where they are compared with an entry's type. */
const TYPE_COMPARED = /\.type\s*[!=]==?\s*"(message|compaction|label|session|custom)"|"(message|compaction|label|session|custom)"\s*[!=]==?\s*[\w.]+\.type\b/;

const sources = (dir: string) => sourceFiles(ROOT, dir);

describe("format seam: no pi entry type outside pi's folder", () => {
  it("src/ (but src/core/formats/pi/) and webview/ name none of pi's entry types or roles", () => {
    const files = [...sources("src"), ...sources("webview")].filter((f) => !f.startsWith(PI_FOLDER));
    assert.ok(files.length > 50, `only ${files.length} source files found from ${ROOT}`);
    const found: string[] = [];
    for (const f of files) {
      readFileSync(join(ROOT, f), "utf8").split("\n").forEach((line, k) => {
        const code = line.replace(/\/\/.*$/, "");
        if (/^\s*(\*|\/\*\*)/.test(line)) return;
        for (const name of PI_ONLY) if (code.includes(`"${name}"`)) found.push(`${relative(ROOT, join(ROOT, f))}:${k + 1}: "${name}"`);
        if (TYPE_COMPARED.test(code)) found.push(`${f}:${k + 1}: ${code.trim().slice(0, 120)}`);
      });
    }
    assert.deepEqual(found, []);
  });

  it("the check itself finds a pi literal where it is not allowed", () => {
    assert.ok(TYPE_COMPARED.test(`if (m.type === "message") x();`));
    assert.ok(TYPE_COMPARED.test(`"label" === meta.type`));
    assert.ok(!TYPE_COMPARED.test(`if (d.kind === "boundary") x();`));
  });
});
