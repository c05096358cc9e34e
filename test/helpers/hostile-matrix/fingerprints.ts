import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";

/** Files up to this size are hashed; bigger ones (the 200 MB line, the sparse GiBs) are known by their stat. */
const HASH_LIMIT = 16 * 1024 * 1024;

/** What changes when a file is written, replaced, truncated or re-linked (not when it is read). */
export function fingerprint(path: string): string {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return "missing";
  }
  const base = `${st.mode}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  if (st.isSymbolicLink()) return `${base}:->${readlinkSync(path)}`;
  if (!st.isFile() || st.size > HASH_LIMIT) return base;
  return `${base}:${createHash("sha1").update(readFileSync(path)).digest("hex")}`;
}

/** path -> fingerprint of everything under `dir` (links are not followed: loops stay loops); `skip` names folders left out. */
export function listing(dir: string, skip: ReadonlySet<string> = new Set()): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      if (skip.has(n)) continue;
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (!st) continue;
      // Directories: what is in them matters, not their own times.
      if (st.isDirectory()) {
        out.set(p, "dir");
        walk(p);
      } else out.set(p, fingerprint(p));
    }
  };
  walk(dir);
  return out;
}

/** Paths added, removed or changed between two listings, as short lines. */
export function listingChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, f] of after) {
    if (!before.has(p)) out.push(`new ${p}`);
    else if (before.get(p) !== f) out.push(`changed ${p}`);
  }
  for (const p of before.keys()) if (!after.has(p)) out.push(`gone ${p}`);
  return out;
}
