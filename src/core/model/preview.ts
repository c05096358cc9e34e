/** One-line previews of entries for trees, lists and the index. */

// Kept short and in Latin-1 where we choose the characters ("->", "..."): V8 stores such
// strings at one byte per char, and the index holds one preview per entry.
const MAX = 100;

const codes = new Uint16Array(MAX + 1);

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0;
}

/**
 * Collapses whitespace in the heads of some texts into one short line. The parts are
 * walked in turn rather than joined: joining a short label to a megabyte tool output
 * and reading the result would make V8 copy the whole output. The result is built from
 * char codes, a fresh flat string that keeps no long source alive.
 */
function oneLine(...parts: string[]): string {
  return String.fromCharCode.apply(null, codes.subarray(0, collect(parts)) as unknown as number[]);
}

/** Fills `codes` with the collapsed head of the parts; returns how many were written. */
function collect(parts: readonly string[]): number {
  let n = 0;
  let space = false;
  outer: for (const text of parts) {
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
      }
      if (n > MAX) break outer;
      codes[n++] = c;
      if (n > MAX) break outer;
    }
  }
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

function firstText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  for (const b of content as Array<Record<string, unknown>>) {
    if (b && b.type === "text" && typeof b.text === "string" && hasText(b.text)) return b.text;
  }
  for (const b of content as Array<Record<string, unknown>>) {
    if (b && b.type === "image") return "[image]";
  }
  return "";
}

function toolCallParts(b: Record<string, unknown>): string[] {
  const args = (b.arguments ?? {}) as Record<string, unknown>;
  const main = args.path ?? args.command ?? args.pattern ?? args.url;
  return [String(b.name), "(", typeof main === "string" ? main : "", ")"];
}

function messageParts(m: Record<string, unknown>): string[] {
  switch (m.role) {
    case "user":
      return [firstText(m.content)];
    case "assistant": {
      const blocks = Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [];
      // Parts, not joined strings: `collect` walks them and stops at the preview's length.
      const parts: string[] = [];
      let thinking: string | undefined;
      for (const b of blocks) {
        if (!b) continue;
        if (b.type === "text" && typeof b.text === "string" && !parts.length && hasText(b.text)) parts.push(b.text);
        else if (b.type === "thinking" && thinking === undefined) thinking = String(b.thinking ?? "");
      }
      let calls = 0;
      for (const b of blocks) {
        if (!b || b.type !== "toolCall") continue;
        parts.push(calls++ ? ", " : parts.length ? " -> " : "-> ", ...toolCallParts(b));
      }
      if (parts.length) return parts;
      if (thinking !== undefined) return ["(thinking) ", thinking];
      return m.stopReason === "error" || m.stopReason === "aborted" ? [`(${String(m.stopReason)}) `, String(m.errorMessage ?? "")] : ["(empty)"];
    }
    case "toolResult":
      return [String(m.toolName ?? "tool"), m.isError ? " (error): " : ": ", firstText(m.content)];
    case "bashExecution":
      return ["$ ", String(m.command ?? ""), m.excludeFromContext ? " (not sent)" : ""];
    case "custom":
    case "hookMessage":
      return [`[${String(m.customType ?? "custom")}] `, firstText(m.content)];
    default:
      return [`(${String(m.role)})`];
  }
}

function entryParts(e: Record<string, unknown>): string[] {
  switch (e.type) {
    case "message":
      return e.message && typeof e.message === "object" ? messageParts(e.message as Record<string, unknown>) : [];
    case "compaction":
      return [`compaction: ${String(e.tokensBefore ?? "?")} tokens summarized`];
    case "branch_summary":
      return typeof e.summary === "string" && e.summary ? ["branch summary: ", e.summary] : ["branch (no summary)"];
    case "custom_message":
      return [`[${String(e.customType ?? "custom")}] `, firstText(e.content)];
    case "custom":
      return [`custom: ${String(e.customType ?? "")}`];
    case "model_change":
      return [`model: ${String(e.provider ?? "")}/${String(e.modelId ?? "")}`];
    case "thinking_level_change":
      return [`thinking: ${String(e.thinkingLevel ?? "")}`];
    case "label":
      return typeof e.label === "string" && e.label ? [`label ${String(e.targetId)}: `, e.label] : [`label ${String(e.targetId)} cleared`];
    case "session_info":
      return ["name: ", String(e.name ?? "")];
    default:
      return [`(${String(e.type)})`];
  }
}

export function entryPreview(e: Record<string, unknown>): string {
  return oneLine(...entryParts(e));
}

/** The preview as UTF-16 code units: a view of a shared buffer, valid until the next call. */
export function entryPreviewCodes(e: Record<string, unknown>): Uint16Array {
  return codes.subarray(0, collect(entryParts(e)));
}
