/** One-line previews of entries for trees, lists and the index. */

// Kept short and in Latin-1 where we choose the characters ("->", "..."): V8 stores such
// strings at one byte per char, and the index holds one preview per entry.
const MAX = 100;

const codes = new Uint16Array(MAX + 1);

/**
 * Collapses whitespace in the head of a text into one short line. Built from char codes
 * so the result is a fresh flat string: a slice would keep the (possibly megabyte-long)
 * source alive, and a regex over a long head is the slowest part of indexing.
 */
function oneLine(text: string, max = MAX): string {
  let n = 0;
  let space = false;
  const end = Math.min(text.length, max * 3);
  for (let i = 0; i < end && n <= max; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xa0) {
      space = n > 0;
      continue;
    }
    if (space) {
      codes[n++] = 32;
      space = false;
      if (n > max) break;
    }
    codes[n++] = c;
  }
  if (n > max) {
    codes[max - 3] = codes[max - 2] = codes[max - 1] = 46;
    n = max;
  }
  return String.fromCharCode.apply(null, codes.subarray(0, n) as unknown as number[]);
}

function firstText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  for (const b of content as Array<Record<string, unknown>>) {
    if (b && b.type === "text" && typeof b.text === "string" && b.text.trim()) return b.text;
  }
  for (const b of content as Array<Record<string, unknown>>) {
    if (b && b.type === "image") return "[image]";
  }
  return "";
}

function toolCallText(b: Record<string, unknown>): string {
  const args = (b.arguments ?? {}) as Record<string, unknown>;
  const main = args.path ?? args.command ?? args.pattern ?? args.url;
  return `${String(b.name)}(${typeof main === "string" ? main : ""})`;
}

function messagePreview(m: Record<string, unknown>): string {
  switch (m.role) {
    case "user":
      return firstText(m.content);
    case "assistant": {
      const blocks = Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [];
      const text = blocks.find((b) => b?.type === "text" && typeof b.text === "string" && b.text.trim());
      const calls = blocks.filter((b) => b?.type === "toolCall").map(toolCallText);
      if (text) return calls.length ? `${text.text as string} -> ${calls.join(", ")}` : (text.text as string);
      if (calls.length) return `-> ${calls.join(", ")}`;
      const thinking = blocks.find((b) => b?.type === "thinking");
      if (thinking) return `(thinking) ${String(thinking.thinking ?? "")}`;
      return m.stopReason === "error" || m.stopReason === "aborted"
        ? `(${String(m.stopReason)}) ${String(m.errorMessage ?? "")}`
        : "(empty)";
    }
    case "toolResult":
      return `${String(m.toolName ?? "tool")}${m.isError ? " (error)" : ""}: ${firstText(m.content)}`;
    case "bashExecution":
      return `$ ${String(m.command ?? "")}${m.excludeFromContext ? " (not sent)" : ""}`;
    case "custom":
    case "hookMessage":
      return `[${String(m.customType ?? "custom")}] ${firstText(m.content)}`;
    default:
      return `(${String(m.role)})`;
  }
}

export function entryPreview(e: Record<string, unknown>): string {
  switch (e.type) {
    case "message":
      return oneLine(e.message && typeof e.message === "object" ? messagePreview(e.message as Record<string, unknown>) : "");
    case "compaction":
      return oneLine(`compaction: ${String(e.tokensBefore ?? "?")} tokens summarized`);
    case "branch_summary":
      return oneLine(typeof e.summary === "string" && e.summary ? `branch summary: ${e.summary}` : "branch (no summary)");
    case "custom_message":
      return oneLine(`[${String(e.customType ?? "custom")}] ${firstText(e.content)}`);
    case "custom":
      return oneLine(`custom: ${String(e.customType ?? "")}`);
    case "model_change":
      return oneLine(`model: ${String(e.provider ?? "")}/${String(e.modelId ?? "")}`);
    case "thinking_level_change":
      return oneLine(`thinking: ${String(e.thinkingLevel ?? "")}`);
    case "label":
      return oneLine(typeof e.label === "string" && e.label ? `label ${String(e.targetId)}: ${e.label}` : `label ${String(e.targetId)} cleared`);
    case "session_info":
      return oneLine(`name: ${String(e.name ?? "")}`);
    default:
      return oneLine(`(${String(e.type)})`);
  }
}
