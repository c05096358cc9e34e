/** One-line previews of entries for trees, lists and the index. */
import { summarizeToolCall } from "../../../session/tool-summary";


// Kept short and in Latin-1 where we choose the characters ("->", "..."): V8 stores such
// strings at one byte per char, and the index holds one preview per entry.
const MAX = 100;

/**
 * The preview being written: whitespace runs collapse to one space, leading and
 * trailing whitespace go, and past MAX chars it ends in "...". Texts are added in
 * turn and read only as far as the preview reaches: joining a short label to a
 * megabyte tool output would make V8 copy the whole output. No array or string is
 * made on the way; one entry's preview is built per call, for every entry of a load.
 */
const codes = new Uint16Array(MAX + 1);
let n = 0;
let space = false;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0;
}

function add(text: string): void {
  if (n > MAX) return;
  const end = Math.min(text.length, MAX * 3);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      space = n > 0;
      continue;
    }
    if (space) {
      codes[n++] = 32;
      space = false;
      if (n > MAX) return;
    }
    codes[n++] = c;
    if (n > MAX) return;
  }
}

/** Ends the preview; returns how many codes it has. */
function finish(): number {
  if (n > MAX) {
    codes[MAX - 3] = codes[MAX - 2] = codes[MAX - 1] = 46;
    n = MAX;
  }
  return n;
}

/** Whether a text has anything but whitespace (without trim(), which copies). */
function hasText(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return true;
  return false;
}

function addFirstText(content: unknown): void {
  if (typeof content === "string") return add(content);
  if (!Array.isArray(content)) return;
  for (const b of content as Array<Record<string, unknown>>) {
    if (b && b.type === "text" && typeof b.text === "string" && hasText(b.text)) return add(b.text);
  }
  for (const b of content as Array<Record<string, unknown>>) {
    if (b && b.type === "image") return add("[image]");
  }
}

/** A call as what it does ("Read b.txt", "$ ls"); paths as written (the cwd is in the header, the explorer makes them relative). */
function addToolCall(b: Record<string, unknown>): void {
  add(summarizeToolCall(b.name, b.arguments ?? {}));
}

function addAssistant(m: Record<string, unknown>): void {
  const blocks = Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [];
  let text: string | undefined;
  let thinking: string | undefined;
  for (const b of blocks) {
    if (!b) continue;
    if (b.type === "text" && typeof b.text === "string" && text === undefined && hasText(b.text)) text = b.text;
    else if (b.type === "thinking" && thinking === undefined) thinking = String(b.thinking ?? "");
  }
  if (text !== undefined) add(text);
  let calls = 0;
  for (const b of blocks) {
    if (!b || b.type !== "toolCall") continue;
    add(calls++ ? ", " : text !== undefined ? " -> " : "-> ");
    addToolCall(b);
  }
  if (text !== undefined || calls) return;
  if (thinking !== undefined) {
    add("(thinking) ");
    add(thinking);
  } else if (m.stopReason === "error" || m.stopReason === "aborted") {
    add(`(${String(m.stopReason)}) `);
    add(String(m.errorMessage ?? ""));
  } else add("(empty)");
}

function addMessage(m: Record<string, unknown>): void {
  switch (m.role) {
    case "user":
      return addFirstText(m.content);
    case "assistant":
      return addAssistant(m);
    case "toolResult":
      add(String(m.toolName ?? "tool"));
      add(m.isError ? " (error): " : ": ");
      return addFirstText(m.content);
    case "bashExecution":
      add("$ ");
      add(String(m.command ?? ""));
      if (m.excludeFromContext) add(" (not sent)");
      return;
    case "custom":
    case "hookMessage":
      add(`[${String(m.customType ?? "custom")}] `);
      return addFirstText(m.content);
    default:
      add(`(${String(m.role)})`);
  }
}

function addEntry(e: Record<string, unknown>): void {
  switch (e.type) {
    case "message":
      if (e.message && typeof e.message === "object") addMessage(e.message as Record<string, unknown>);
      return;
    case "compaction":
      return add(`compaction: ${String(e.tokensBefore ?? "?")} tokens summarized`);
    case "branch_summary":
      if (typeof e.summary === "string" && e.summary) {
        add("branch summary: ");
        add(e.summary);
      } else add("branch (no summary)");
      return;
    case "custom_message":
      add(`[${String(e.customType ?? "custom")}] `);
      return addFirstText(e.content);
    case "custom":
      return add(`custom: ${String(e.customType ?? "")}`);
    case "model_change":
      return add(`model: ${String(e.provider ?? "")}/${String(e.modelId ?? "")}`);
    case "thinking_level_change":
      return add(`thinking: ${String(e.thinkingLevel ?? "")}`);
    case "label":
      if (typeof e.label === "string" && e.label) {
        add(`label ${String(e.targetId)}: `);
        add(e.label);
      } else add(`label ${String(e.targetId)} cleared`);
      return;
    case "session_info":
      add("name: ");
      return add(String(e.name ?? ""));
    default:
      add(`(${String(e.type)})`);
  }
}

/** The preview as UTF-16 code units: a view of a shared buffer, valid until the next call. */
export function entryPreviewCodes(e: Record<string, unknown>): Uint16Array {
  n = 0;
  space = false;
  addEntry(e);
  return codes.subarray(0, finish());
}

export function entryPreview(e: Record<string, unknown>): string {
  // A fresh flat string from char codes: it keeps no long source text alive.
  return String.fromCharCode.apply(null, entryPreviewCodes(e) as unknown as number[]);
}
