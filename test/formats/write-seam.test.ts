import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatFolderNames, sourceFiles } from "../helpers/source-files";

/**
 * Issue 26: every format writes through its writer's hooks (compaction, label, continue,
 * fork) and leaves from its own default-leaf rule. A front end that imports a format's
 * folder again, asks for a format's class, or reads pi's rule off the neutral tree fails
 * here, with its file and line.
 */
const ROOT = process.cwd();

/** The front ends of the write actions: one path for every format. */
const WRITE_PATHS = ["src/extension/actions.ts", "src/cli/commands/compact.ts", "src/cli/commands/branch.ts", "src/cli/commands/fork.ts", "src/cli/commands/offered.ts"];

/**
 * Where SessionTree.defaultLeaf (pi's rule in the neutral tree) is still read, by a file
 * another change of issue 26 removes; nothing may be added to this list.
 */
const DEFAULT_LEAF_HOLDOUTS = ["src/explorer/token-bars.ts"];

const sources = (dir: string) => sourceFiles(ROOT, dir);

/** Lines of code (comments left out) matching `re`, as "file:line: text". */
function hits(files: readonly string[], re: RegExp): string[] {
  const found: string[] = [];
  for (const f of files) {
    readFileSync(join(ROOT, f), "utf8").split("\n").forEach((line, k) => {
      if (/^\s*(\*|\/\*\*|\/\/)/.test(line)) return;
      if (re.test(line.replace(/\/\/.*$/, ""))) found.push(`${f}:${k + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  return found;
}

/** An import from any format's folder (the list read from src/core/formats, so a new format is covered). */
const FORMAT_IMPORT = new RegExp(`from\\s+"[./]*(core/)?formats/(${formatFolderNames(ROOT).join("|")})/`);
const FORMAT_CLASS = /instanceof\s+(Session|PiSession|JsonlSession)\b/;
const TREE_DEFAULT_LEAF = /\btree\.defaultLeaf\b/;

describe("write seam: one path for every format (issue 26)", () => {
  it("compaction, label, continue and fork front ends import no format's folder and ask for no format's class", () => {
    assert.deepEqual(hits(WRITE_PATHS, FORMAT_IMPORT), []);
    assert.deepEqual(hits(WRITE_PATHS, FORMAT_CLASS), []);
  });

  it("the default leaf comes from the format's rule: nothing reads pi's rule off the neutral tree", () => {
    const files = sources("src").filter((f) => !DEFAULT_LEAF_HOLDOUTS.includes(f));
    assert.ok(files.length > 50, `only ${files.length} source files found from ${ROOT}`);
    assert.deepEqual(hits(files, TREE_DEFAULT_LEAF), []);
  });

  it("the checks themselves find what they look for", () => {
    assert.ok(FORMAT_IMPORT.test(`import { x } from "../core/formats/pi/compaction/compact";`));
    assert.ok(FORMAT_IMPORT.test(`import { x } from "../../core/formats/clawdcode/format";`));
    assert.ok(FORMAT_IMPORT.test(`import { x } from "../core/formats/codex/writer";`) && FORMAT_IMPORT.test(`import { x } from "../core/formats/gemini-cli/fork";`));
    assert.ok(!FORMAT_IMPORT.test(`import { formatOf } from "../core/formats/registry";`));
    assert.ok(FORMAT_CLASS.test(`if (s instanceof Session) return s;`));
    assert.ok(TREE_DEFAULT_LEAF.test(`const leaf = session.tree.defaultLeaf;`));
    assert.ok(!TREE_DEFAULT_LEAF.test(`const leaf = format.defaultLeaf(session);`));
  });
});
