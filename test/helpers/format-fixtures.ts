import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** The session files a format keeps in <root>/<format id>/ (sub-folders too; `.bad.` files are not sessions), sorted. */
export function formatFixtures(root: string, formatId: string): string[] {
  const dir = join(root, formatId);
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(".jsonl") && !e.name.includes(".bad.")) out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out.sort();
}
