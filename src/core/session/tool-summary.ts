import { lineDiffCounts } from "../util/line-diff";

/**
 * One line saying what a tool call did ("Read b.txt", "$ ls", "Edit src/csv.js (-1 +1)"),
 * for every format: a format hands over the tool's name, its input object and the
 * session's cwd, and rows, search and detail titles show the result. Rules are keyed by
 * the name in lower case, letters only, so pi's "read", Claude Code's "Read" and a seed's
 * "read_file" meet the same rule; any other tool gets `Name key=value, ...`.
 * Inputs are untrusted and may be huge: every field is cut before it is flattened.
 */

/** Widest summary (the explorer's rows show up to 300 characters; a summary is one part of a row). */
export const SUMMARY_WIDTH = 120;

/** One edit a tool call makes to a file: the text it replaces and the text it puts there. */
export interface ToolEdit {
  path?: string;
  oldText: string;
  newText: string;
}

type Input = Record<string, unknown>;
type Rule = (input: Input, cwd: string | undefined) => string;

/** A field's text, cut long before flattening (a 100k-char value costs no more than a short one). */
function field(v: unknown, max = SUMMARY_WIDTH * 2): string {
  if (typeof v !== "string") return typeof v === "number" || typeof v === "boolean" ? String(v) : "";
  return flat(v.length > max ? v.slice(0, max) : v);
}

/** Whitespace and control characters as single spaces: a summary is one line. */
function flat(s: string): string {
  return s.replace(/[\s\u0000-\u001f\u007f]+/g, " ").trim();
}

/** `s` cut to `width` characters, ending in "..." when cut (never inside a surrogate pair). */
export function clipLine(s: string, width = SUMMARY_WIDTH): string {
  if (s.length <= width) return s;
  let end = width - 3;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}...`;
}

/** A path relative to cwd when it lies inside it ("." for cwd itself); any other path as given. */
export function relativePath(path: string, cwd: string | undefined): string {
  if (!cwd || !path) return path;
  const base = cwd.replace(/[\\/]+$/, "");
  if (!base) return path;
  if (path === base || path === `${base}/` || path === `${base}\\`) return ".";
  if (path.length > base.length + 1 && path.startsWith(base)) {
    const sep = path.charCodeAt(base.length);
    if (sep === 47 || sep === 92) return path.slice(base.length + 1);
  }
  return path;
}

/** The first path-like field of an input, relative to cwd. */
function pathOf(input: Input, cwd: string | undefined): string {
  for (const k of ["file_path", "path", "filePath", "notebook_path", "file", "filename", "dir", "directory"]) {
    const v = input[k];
    if (typeof v === "string" && v) return field(relativePath(v, cwd));
  }
  return "";
}

/** Lines of a text as an edit counts them: "" has none, a trailing newline ends the last one. */
export function lineCount(v: unknown): number {
  if (typeof v !== "string" || v === "") return 0;
  let n = 1;
  for (let i = 0; i < v.length; i++) if (v.charCodeAt(i) === 10) n++;
  return v.charCodeAt(v.length - 1) === 10 ? n - 1 : n;
}

const OLD_KEYS = ["old_string", "oldText", "old_str", "old", "old_text", "oldString"];
const NEW_KEYS = ["new_string", "newText", "new_str", "new", "new_text", "newString"];

function firstString(o: Input, keys: readonly string[]): string | undefined {
  for (const k of keys) if (typeof o[k] === "string") return o[k] as string;
  return undefined;
}

/** One old/new pair of an input (or of one item of its `edits` list). */
function pairOf(o: Input): { oldText: string; newText: string } | undefined {
  const oldText = firstString(o, OLD_KEYS);
  const newText = firstString(o, NEW_KEYS);
  return oldText === undefined && newText === undefined ? undefined : { oldText: oldText ?? "", newText: newText ?? "" };
}

function isInput(v: unknown): v is Input {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

/** The old/new pairs of an edit-like input: its own pair, else its `edits` list (MultiEdit, pi's multi-edit). */
function pairsOf(input: Input): Array<{ oldText: string; newText: string }> {
  const own = pairOf(input);
  if (own) return [own];
  const list = Array.isArray(input.edits) ? input.edits : [];
  const out: Array<{ oldText: string; newText: string }> = [];
  for (const e of list) {
    const p = isInput(e) ? pairOf(e) : undefined;
    if (p) out.push(p);
  }
  return out;
}

/** Texts longer than this together are counted whole, not diffed (an index reads every line of a session). */
const DIFF_COUNT_CHARS = 20_000;

/** Lines an edit removes and adds: its line diff's - and + lines, so the row agrees with the detail pane's diff. */
export function editCounts(oldText: string, newText: string): { minus: number; plus: number } {
  if (oldText.length + newText.length > DIFF_COUNT_CHARS) return { minus: lineCount(oldText), plus: lineCount(newText) };
  return lineDiffCounts(oldText, newText);
}

function editSummary(input: Input, cwd: string | undefined): string {
  const pairs = pairsOf(input);
  let minus = 0;
  let plus = 0;
  for (const p of pairs) {
    const n = editCounts(p.oldText, p.newText);
    minus += n.minus;
    plus += n.plus;
  }
  const many = pairs.length > 1 ? `${pairs.length} edits, ` : "";
  return `Edit ${pathOf(input, cwd) || "(no path)"} (${many}-${minus} +${plus})`;
}

function readSummary(input: Input, cwd: string | undefined): string {
  const offset = typeof input.offset === "number" ? input.offset : undefined;
  const limit = typeof input.limit === "number" ? input.limit : undefined;
  const range = offset !== undefined && limit !== undefined ? ` (lines ${offset}-${offset + limit - 1})` : offset !== undefined ? ` (from line ${offset})` : limit !== undefined ? ` (first ${limit} lines)` : "";
  return `Read ${pathOf(input, cwd) || "(no path)"}${range}`;
}

function writeSummary(input: Input, cwd: string | undefined): string {
  const text = firstString(input, ["content", "file_text", "text", "contents"]);
  return `Write ${pathOf(input, cwd) || "(no path)"}${text === undefined ? "" : ` (+${lineCount(text)})`}`;
}

/** Where a search looks, when it says: " in src". */
function inPath(input: Input, cwd: string | undefined): string {
  const p = pathOf(input, cwd);
  return p ? ` in ${p}` : "";
}

function grepSummary(input: Input, cwd: string | undefined): string {
  const pattern = field(input.pattern ?? input.query ?? input.regex, SUMMARY_WIDTH);
  const only = field(input.glob ?? input.include ?? input.type, SUMMARY_WIDTH);
  return `Grep "${pattern}"${only ? ` (${only})` : ""}${inPath(input, cwd)}`;
}

/** The Anthropic text editor tool: one name, its command says what it does. */
function textEditorSummary(input: Input, cwd: string | undefined): string {
  switch (input.command) {
    case "view":
      return `Read ${pathOf(input, cwd) || "(no path)"}`;
    case "create":
      return writeSummary(input, cwd);
    case "insert":
      return `Edit ${pathOf(input, cwd) || "(no path)"} (+${lineCount(input.insert_text ?? input.new_str)})`;
    case "undo_edit":
      return `Undo edit ${pathOf(input, cwd) || "(no path)"}`;
    default:
      return editSummary(input, cwd);
  }
}

function todoSummary(input: Input): string {
  const list = Array.isArray(input.todos) ? input.todos : [];
  const count = (s: string) => list.filter((t) => isInput(t) && t.status === s).length;
  const parts = [`${count("completed")} done`, `${count("in_progress")} in progress`];
  return `Update todos (${list.length}: ${parts.join(", ")})`;
}

function agentSummary(input: Input): string {
  const type = field(input.subagent_type ?? input.agent ?? input.agentType ?? input.agent_name, 60);
  const what = field(input.description, SUMMARY_WIDTH) || field(input.prompt, SUMMARY_WIDTH);
  return `Agent${type ? ` (${type})` : ""}${what ? `: ${what}` : ""}`;
}

function notebookSummary(input: Input, cwd: string | undefined): string {
  const mode = field(input.edit_mode, 20);
  const cell = field(input.cell_id ?? input.cell_number, 40);
  const how = [mode && mode !== "replace" ? mode : "", cell ? `cell ${cell}` : ""].filter((x) => x).join(" ");
  return `Edit ${pathOf(input, cwd) || "(no path)"}${how ? ` (${how})` : ""}`;
}

/** apply_patch: the files its patch text names ("*** Update File: a.ts"). */
function patchSummary(input: Input, cwd: string | undefined): string {
  const whole = typeof input.input === "string" ? input.input : typeof input.patch === "string" ? input.patch : "";
  const text = whole.slice(0, 200_000);
  const files: string[] = [];
  const re = /^\*\*\* (?:Update|Add|Delete) File: ([^\n]{1,500})$/gm;
  for (let m = re.exec(text); m && files.length < 20; m = re.exec(text)) files.push(field(relativePath(m[1].trim(), cwd)));
  return `Patch ${files.length ? files.join(", ") : pathOf(input, cwd) || "(no files)"}`;
}

const shell: Rule = (i) => `$ ${field(i.command ?? i.cmd ?? i.script, SUMMARY_WIDTH * 2)}`;
const read: Rule = readSummary;
const write: Rule = writeSummary;
const edit: Rule = editSummary;
const list: Rule = (i, cwd) => `List ${pathOf(i, cwd) || "."}`;

/** Rules by tool name in lower case, letters only. */
const RULES: Readonly<Record<string, Rule>> = {
  read,
  readfile: read,
  view: read,
  cat: read,
  write,
  writefile: write,
  create: write,
  createfile: write,
  edit,
  editfile: edit,
  multiedit: edit,
  strreplace: edit,
  strreplaceeditor: textEditorSummary,
  strreplacebasededittool: textEditorSummary,
  texteditor: textEditorSummary,
  notebookedit: notebookSummary,
  applypatch: patchSummary,
  patch: patchSummary,
  bash: shell,
  shell,
  run: shell,
  exec: shell,
  execcommand: shell,
  runcommand: shell,
  executecommand: shell,
  terminal: shell,
  ls: list,
  list,
  listdir: list,
  listfiles: list,
  glob: (i, cwd) => `Glob ${field(i.pattern, SUMMARY_WIDTH)}${inPath(i, cwd)}`,
  find: (i, cwd) => `Find ${field(i.pattern ?? i.name ?? i.query, SUMMARY_WIDTH)}${inPath(i, cwd)}`,
  grep: grepSummary,
  search: grepSummary,
  task: agentSummary,
  agent: agentSummary,
  webfetch: (i) => `Fetch ${field(i.url, SUMMARY_WIDTH * 2)}`,
  fetch: (i) => `Fetch ${field(i.url, SUMMARY_WIDTH * 2)}`,
  websearch: (i) => `Search the web: ${field(i.query, SUMMARY_WIDTH)}`,
  todowrite: todoSummary,
  todoread: () => "Read todos",
  runtest: (i) => `Run test ${field(i.name ?? i.test, SUMMARY_WIDTH)}`,
  // Claude Code's task list and team tools (2.1.x).
  taskcreate: (i) => `Create task: ${field(i.subject ?? i.description, SUMMARY_WIDTH)}`,
  taskupdate: (i) => `Update task ${field(i.taskId, 40)}${i.status ? `: ${field(i.status, 40)}` : ""}`,
  taskget: (i) => `Get task ${field(i.taskId, 40)}`,
  tasklist: () => "List tasks",
  skill: (i) => `Skill ${field(i.skill ?? i.command ?? i.name, SUMMARY_WIDTH)}`,
  sendmessage: (i) => `Message ${field(i.to, 40)}: ${field(i.summary ?? i.message, SUMMARY_WIDTH)}`,
  toolsearch: (i) => `Find tools: ${field(i.query, SUMMARY_WIDTH)}`,
  // Gemini CLI's tools (0.61): replace has Edit's old_string/new_string.
  runshellcommand: shell,
  replace: edit,
  grepsearch: grepSummary,
  listdirectory: list,
  invokeagent: agentSummary,
  googlewebsearch: (i) => `Search the web: ${field(i.query, SUMMARY_WIDTH)}`,
};

/** Tool names' keys met lately (a session calls a few tools thousands of times; the history reads every call). */
const keys = new Map<string, string>();
/** Names kept in `keys` at most (it is emptied past this). */
const KEYS_CAP = 1024;

/** A tool's name in lower case, letters only ("MultiEdit", "multi_edit": "multiedit"; "apply_patch", "applyPatch": "applypatch"). */
export function toolKey(name: string): string {
  let key = keys.get(name);
  if (key === undefined) {
    key = name.slice(0, 60).toLowerCase().replace(/[^a-z]/g, "");
    if (keys.size >= KEYS_CAP) keys.clear();
    keys.set(name, key);
  }
  return key;
}

/** A tool's rule, looked up by its key (toolKey). */
function ruleOf(name: string): Rule | undefined {
  const key = toolKey(name);
  // Own keys only: a tool named "constructor" is not Object's.
  return Object.hasOwn(RULES, key) ? RULES[key] : undefined;
}

/** One value of the fallback's key=value list, never as JSON (no braces). */
function valueText(v: unknown, cwd: string | undefined): string {
  if (typeof v === "string") return clipLine(field(relativePath(v.length > 4096 ? v.slice(0, 4096) : v, cwd), 80), 40);
  if (typeof v === "number" || typeof v === "boolean" || v === null) return String(v);
  if (Array.isArray(v)) return `${v.length} item${v.length === 1 ? "" : "s"}`;
  if (isInput(v)) return "(...)";
  return "";
}

/** `Name key=value, ...` for a tool no rule knows. */
function fallback(name: string, input: unknown, cwd: string | undefined): string {
  if (typeof input === "string") return `${name} ${field(input)}`.trim();
  if (!isInput(input)) return name;
  const parts: string[] = [];
  let len = name.length;
  for (const k in input) {
    if (len > SUMMARY_WIDTH * 2) break;
    const part = `${field(k, 40)}=${valueText(input[k], cwd)}`;
    parts.push(part);
    len += part.length + 2;
  }
  return parts.length ? `${name} ${parts.join(", ")}` : name;
}

/**
 * What one tool call does, on one line of at most `width` characters: its tool's rule,
 * else `Name key=value, ...`. Paths inside cwd are shown relative to it.
 */
export function summarizeToolCall(name: unknown, input: unknown, cwd?: string, width = SUMMARY_WIDTH): string {
  const shown = field(typeof name === "string" ? name : "", 60) || "(unnamed tool)";
  const rule = ruleOf(shown);
  const text = rule && isInput(input) ? rule(input, cwd) : fallback(shown, input, cwd);
  return clipLine(flat(text), width);
}

/** Several calls of one response: "Read a.ts, Read b.ts, $ npm test", or "3 tool calls: ..." when that is too long. */
export function summarizeCalls(summaries: readonly string[], width = SUMMARY_WIDTH): string {
  const joined = summaries.join(", ");
  if (summaries.length < 2 || joined.length <= width) return clipLine(joined, width);
  return clipLine(`${summaries.length} tool calls: ${joined}`, width);
}

/**
 * The edits an edit-like call makes (Edit, MultiEdit, str_replace, pi's edit, a seed's
 * edit_file), for the detail pane's diff; undefined for any other call.
 */
export function toolEdits(name: unknown, input: unknown, cwd?: string): ToolEdit[] | undefined {
  if (typeof name !== "string" || !isInput(input)) return undefined;
  const rule = ruleOf(name);
  if (rule !== edit && rule !== textEditorSummary) return undefined;
  if (rule === textEditorSummary && input.command !== "str_replace" && input.command !== "insert") return undefined;
  const pairs = input.command === "insert" ? [{ oldText: "", newText: firstString(input, ["insert_text", "new_str"]) ?? "" }] : pairsOf(input);
  if (!pairs.length) return undefined;
  const p = typeof input.file_path === "string" ? input.file_path : typeof input.path === "string" ? input.path : undefined;
  // Built field by field (spreads cost a microsecond a call: the history reads every edit).
  const path = p ? relativePath(p, cwd) : undefined;
  return pairs.map((x) => (path === undefined ? { oldText: x.oldText, newText: x.newText } : { path, oldText: x.oldText, newText: x.newText }));
}
