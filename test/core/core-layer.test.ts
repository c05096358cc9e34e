import { strict as assert } from "node:assert";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

// docs/architecture.md: src/core sits below the front ends. Nothing in it imports the
// explorer's host side, the extension, the CLI or the webview (issue 30: the HTML export's
// page model imported the explorer's controller from core).

const ROOT = process.env.ASE_LAYER_ROOT ?? process.cwd();
const ABOVE = ["src/explorer", "src/extension", "src/cli", "src/mcp", "webview"];
const SPEC = /(?:^|[\s;])(?:import|export)\s[^'";]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

describe("src/core imports nothing above it", () => {
  it("no file of src/core imports src/explorer, src/extension, src/cli, src/mcp or webview", () => {
    const wrong: string[] = [];
    for (const file of tsFiles(join(ROOT, "src", "core"))) {
      for (const m of readFileSync(file, "utf8").matchAll(SPEC)) {
        const spec = m[1] ?? m[2] ?? m[3];
        if (!spec.startsWith(".")) continue;
        const target = relative(ROOT, resolve(dirname(file), spec)).split("\\").join("/");
        if (ABOVE.some((a) => target === a || target.startsWith(`${a}/`)) && existsSync(dirname(resolve(dirname(file), spec)))) wrong.push(`${relative(ROOT, file)} imports ${target}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
});
