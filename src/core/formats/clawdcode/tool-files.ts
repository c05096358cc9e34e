/** Which files a clawdcode tool call names, and what it does to them (by the tool's name). */

const PATH_KEYS = ["path", "file_path", "filePath", "file", "notebook_path"];

/** Tool names, lower case and letters only ("MultiEdit", "str_replace" -> "multiedit", "strreplace"). */
const KINDS: Readonly<Record<string, "read" | "written" | "edited">> = {
  read: "read",
  readfile: "read",
  view: "read",
  cat: "read",
  write: "written",
  writefile: "written",
  create: "written",
  createfile: "written",
  edit: "edited",
  editfile: "edited",
  multiedit: "edited",
  strreplace: "edited",
  strreplaceeditor: "edited",
  applypatch: "edited",
  patch: "edited",
  notebookedit: "edited",
};

export function toolKind(name: unknown): "read" | "written" | "edited" | undefined {
  return KINDS[String(name ?? "").toLowerCase().replace(/[^a-z]/g, "")];
}

/** The paths a tool input names (path-like keys and a `paths` list). */
export function toolPaths(input: unknown): string[] {
  if (!input || typeof input !== "object") return [];
  const o = input as Record<string, unknown>;
  const out: string[] = [];
  for (const k of PATH_KEYS) if (typeof o[k] === "string" && o[k]) out.push(o[k] as string);
  if (Array.isArray(o.paths)) for (const p of o.paths) if (typeof p === "string" && p) out.push(p);
  return out;
}
