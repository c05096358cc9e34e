import { toolKey, type ToolEdit } from "../session/tool-summary";

/** Patch texts past this are not split into edits (the index reads every session; the summary line still names the files). */
const PATCH_CAP = 1_000_000;

/** A tool name in lower case, letters only ("apply_patch" and "applyPatch" meet). */
function key(name: unknown): string {
  return typeof name === "string" ? toolKey(name) : "";
}

/**
 * The edits an apply_patch call makes ("*** Update File: a.ts" then hunks of " ", "-", "+"
 * lines): one edit per hunk, its old text the context and removed lines, its new text the
 * context and added lines; an added file is one edit with an empty old text. Undefined for
 * any other call. The paths are as the patch names them.
 */
export function patchEdits(name: unknown, input: unknown): ToolEdit[] | undefined {
  const k = key(name);
  if (k !== "applypatch" && k !== "patch") return undefined;
  const o = input && typeof input === "object" ? (input as Record<string, unknown>) : {};
  const text = typeof o.input === "string" ? o.input : typeof o.patch === "string" ? o.patch : undefined;
  if (text === undefined || text.length > PATCH_CAP) return undefined;
  const edits: ToolEdit[] = [];
  let path: string | undefined;
  let oldLines: string[] = [];
  let newLines: string[] = [];
  const flush = () => {
    if (path !== undefined && (oldLines.length || newLines.length)) edits.push({ path, oldText: joined(oldLines), newText: joined(newLines) });
    oldLines = [];
    newLines = [];
  };
  for (const line of text.split("\n")) {
    const file = /^\*\*\* (Add|Update|Delete) File: (.{1,500})$/.exec(line);
    if (file) {
      flush();
      path = file[1] === "Delete" ? undefined : file[2].trim();
      continue;
    }
    if (line.startsWith("***")) {
      // "*** End of File" ends a hunk; "*** End Patch" ends the files.
      flush();
      if (line.startsWith("*** End Patch")) path = undefined;
      continue;
    }
    if (line.startsWith("@@")) {
      flush();
      continue;
    }
    if (path === undefined) continue;
    const body = line.slice(1);
    if (line.startsWith("+")) newLines.push(body);
    else if (line.startsWith("-")) oldLines.push(body);
    else if (line.startsWith(" ")) {
      oldLines.push(body);
      newLines.push(body);
    }
  }
  flush();
  return edits;
}

/** Lines as an edit's text: each ended by a newline, as the file holds them. */
function joined(lines: readonly string[]): string {
  return lines.length ? `${lines.join("\n")}\n` : "";
}
