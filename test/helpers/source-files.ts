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

/** The format folders' names: every folder directly under src/core/formats/ (a new format is seen by every seam check). */
export function formatFolderNames(root: string): string[] {
  return readdirSync(join(root, "src", "core", "formats"), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
}
