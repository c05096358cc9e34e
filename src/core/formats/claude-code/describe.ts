import type { EntryDescription } from "../entry-kinds";
import type { SessionReader } from "../session-reader";
import { type ChainFacts, chainFacts, COMPACT_SUMMARY, META, RESULT_ERROR, SIDECHAIN, TOOL_RESULT } from "./chain-facts";
import { SYNTHETIC_MODEL } from "./index-hooks";
import { COMPACT_BOUNDARY } from "./lines";

function describeLine(session: SessionReader, i: number, flags: number, subtype: string | undefined): EntryDescription {
  const t = session.table;
  switch (t.typeAt(i).split("/")[0]) {
    case "user":
      if (flags & COMPACT_SUMMARY) return { kind: "summary", label: "compact summary", visibility: "conversation" };
      if (flags & TOOL_RESULT) return { kind: "tool-result", label: "tool_result", visibility: "conversation", ...(flags & RESULT_ERROR ? { isError: true } : {}) };
      if (flags & META) return { kind: "injected", label: "user (meta)", visibility: "all" };
      return { kind: "user", label: "user", visibility: "user" };
    case "assistant":
      if (t.modelAt(i) === SYNTHETIC_MODEL) return { kind: "assistant", label: "API error", visibility: "conversation", isError: true };
      if (t.toolCalls[i]) return { kind: "tool-call", label: "tool_use", visibility: "conversation" };
      return { kind: "assistant", label: t.preview(i).startsWith("(thinking") ? "thinking" : "assistant", visibility: "conversation" };
    case "system":
      if (subtype === COMPACT_BOUNDARY) return { kind: "boundary", label: COMPACT_BOUNDARY, visibility: "conversation" };
      return { kind: "system", label: subtype ? `system/${subtype}` : "system", visibility: "all", ...(subtype === "api_error" ? { isError: true } : {}) };
    case "attachment":
      return { kind: "injected", label: t.typeAt(i), visibility: "all" };
    case "progress":
      return { kind: "info", label: "progress", visibility: "all" };
    default:
      return { kind: "other", label: t.typeAt(i), visibility: "all" };
  }
}

/**
 * Neutral kind and label of line i. Progress, attachments, meta user lines and system
 * lines other than a compact boundary show under the "all" filter only; sub-agent lines
 * written inline (isSidechain) too, labelled as such, and the earlier lines of a response
 * written over several (fragmentOf). Flags come from the chain facts,
 * read once per session, so describing every row reads no line again.
 */
export function describeClaudeCode(session: SessionReader, i: number): EntryDescription {
  const facts = chainFacts(session);
  const d = fragmentOf(facts, i, describeLine(session, i, facts.flags[i], facts.subtype[i]));
  // Inline sub-agent lines are hidden in their parent's session, not in the sub-agent's own file.
  if (facts.flags[i] & SIDECHAIN && !facts.sidechainFile) return { ...d, label: `sidechain ${d.label}`, visibility: "all" };
  return d;
}

/**
 * One API response written over several lines (one per content block, same message.id)
 * is one turn: its last line is the row (its details show every block, and a fork there
 * keeps the whole response); the earlier lines show under the "all" filter only, as parts.
 */
function fragmentOf(facts: ChainFacts, i: number, d: EntryDescription): EntryDescription {
  const r = facts.response[i];
  const parts = r === undefined ? undefined : facts.fragments.get(r);
  if (!parts || parts.length < 2) return d;
  const k = parts.indexOf(i);
  if (k === parts.length - 1) return { ...d, label: `${d.label} (response of ${parts.length} lines)` };
  return { ...d, label: `${d.label} (line ${k + 1} of ${parts.length} of a response)`, visibility: "all" };
}
