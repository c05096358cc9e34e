import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SCRIPT = join(process.cwd(), "scripts", "import-cycles.mjs");

function check(root?: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [SCRIPT], { encoding: "utf8", env: { ...process.env, ...(root ? { ASE_CYCLES_ROOT: root } : {}) } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("import cycles (npm run cycles, docs/architecture.md)", () => {
  it("src/ and webview/ have no file cycle and no two parts importing each other", () => {
    const r = check();
    assert.match(r.out, /import cycles: 0 between files, 0 between parts/, r.out);
    assert.equal(r.status, 0);
  });

  it("the check finds a file cycle and two parts importing each other (a tree made to have both)", () => {
    const root = mkdtempSync(join(tmpdir(), "ase-cycles-"));
    try {
      mkdirSync(join(root, "src", "core", "store"), { recursive: true });
      mkdirSync(join(root, "src", "core", "tokens"), { recursive: true });
      writeFileSync(join(root, "src", "core", "store", "a.ts"), 'import type { B } from "../tokens/b";\nexport type A = B;\n');
      writeFileSync(join(root, "src", "core", "tokens", "b.ts"), 'import { type A } from "../store/a";\nexport type B = A | 1;\n');
      writeFileSync(join(root, "src", "core", "store", "c.ts"), 'export const c = import("./d");\n');
      writeFileSync(join(root, "src", "core", "store", "d.ts"), 'export * from "./c";\n');
      const r = check(root);
      assert.equal(r.status, 1, r.out);
      assert.match(r.out, /file cycle \(2 files\): src\/core\/store\/a\.ts -> src\/core\/tokens\/b\.ts/);
      assert.match(r.out, /file cycle \(2 files\): src\/core\/store\/c\.ts -> src\/core\/store\/d\.ts/);
      assert.match(r.out, /parts import each other: src\/core\/store <-> src\/core\/tokens/);
      assert.match(r.out, /import cycles: 2 between files, 1 between parts/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
