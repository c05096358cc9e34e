import { readdirSync } from "node:fs";
import { join } from "node:path";

/** The .ts files under `dir` (relative to `root`), as paths relative to `root`: the source checks read them. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(root, p));
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}
