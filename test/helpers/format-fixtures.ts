import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The session files a format keeps in <root>/<format id>/ (sub-folders too), sorted. Not
 * sessions: `.bad.` files, and a recorder's log of the requests the agent sent
 * (`requests.jsonl`, beside the recorded store).
 */
export function formatFixtures(root: string, formatId: string): string[] {
  const dir = join(root, formatId);
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(".jsonl") && !e.name.includes(".bad.") && e.name !== "requests.jsonl") out.push(join(d, e.name));
    }
  };
  walk(dir);
  return out.sort();
}
