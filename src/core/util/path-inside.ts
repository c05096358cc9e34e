import { realpathSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";

/** Where a path really leads, and whether that is inside one of some folders. */
export type PathCheck = { inside: true; real: string } | { inside: false; reason: string; /** Set when the file exists but lies outside (by its path, or through a link). */ leadsOut?: "path" | "link" };

/** Whether `child` is `folder` or below it (both already real paths). */
export function isInside(folder: string, child: string): boolean {
  const rel = relative(folder, child);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/**
 * Resolves `path` through every symlink (the file and its folders) and says whether the
 * regular file it leads to lies inside one of `folders` (resolved the same way). A
 * workspace that is not trusted may only name its own files: a `.jsonl` link to
 * /etc/passwd, or `../../` out of the folder, is outside. Reasons never quote the file.
 */
export function realPathInside(path: string, folders: readonly string[]): PathCheck {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { inside: false, reason: code === "ENOENT" ? "does not exist" : `cannot be resolved (${code ?? (err as Error).message})` };
  }
  const roots: string[] = [];
  for (const f of folders) {
    try {
      roots.push(realpathSync(f));
    } catch {
      // A folder that does not exist holds nothing.
    }
  }
  if (!roots.some((r) => isInside(r, real))) {
    const byLink = real !== resolve(path);
    return { inside: false, reason: byLink ? "leads outside the workspace folders through a symbolic link" : "is outside the workspace folders", leadsOut: byLink ? "link" : "path" };
  }
  try {
    if (!statSync(real).isFile()) return { inside: false, reason: "is not a regular file" };
  } catch (err) {
    return { inside: false, reason: `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})` };
  }
  return { inside: true, real };
}

/**
 * Whether the folder `path` (through every symlink) is one of `folders` or below one of
 * them, resolved the same way. A folder that does not exist is inside nothing.
 */
export function realFolderInside(path: string, folders: readonly string[]): boolean {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return false;
  }
  return folders.some((f) => {
    try {
      return isInside(realpathSync(f), real);
    } catch {
      return false;
    }
  });
}
