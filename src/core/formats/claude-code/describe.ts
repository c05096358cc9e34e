import { type EntryDescription, KIND_LABELS } from "../../session/entry-kinds";
import type { SessionReader } from "../../session/session-reader";
import { summarizeCalls } from "../../session/tool-summary";
import { type ChainFacts, chainFacts, COMPACT_SUMMARY, META, RESULT_ERROR, SIDECHAIN, TOOL_RESULT } from "./chain-facts";
import { SYNTHETIC_MODEL } from "./index-hooks";
import { COMPACT_BOUNDARY } from "./lines";

/** "turn_duration" as a person reads it: "turn duration". */
function words(name: string): string {
  return name.replace(/_/g, " ");
}

function describeLine(session: SessionReader, i: number, flags: number, subtype: string | undefined): EntryDescription {
  const t = session.table;
  const type = t.typeAt(i);
  switch (type.split("/")[0]) {
    case "user":
      if (flags & COMPACT_SUMMARY) return { kind: "summary", label: KIND_LABELS.summary, typeName: "compact summary", visibility: "conversation" };
      if (flags & TOOL_RESULT) return { kind: "tool-result", label: KIND_LABELS["tool-result"], typeName: "tool_result", visibility: "conversation", ...(flags & RESULT_ERROR ? { isError: true } : {}) };
      if (flags & META) return { kind: "injected", label: KIND_LABELS.injected, typeName: "user (meta)", visibility: "all" };
      return { kind: "user", label: KIND_LABELS.user, typeName: "user", visibility: "user" };
    case "assistant":
      if (t.modelAt(i) === SYNTHETIC_MODEL) return { kind: "assistant", label: "API error", typeName: "assistant (<synthetic>)", visibility: "conversation", isError: true };
      if (t.toolCalls[i]) return { kind: "tool-call", label: t.toolCalls[i] > 1 ? "Tool calls" : KIND_LABELS["tool-call"], typeName: "tool_use", visibility: "conversation" };
      if (t.preview(i).startsWith("(thinking")) return { kind: "assistant", label: "Thinking", typeName: "thinking", visibility: "conversation" };
      return { kind: "assistant", label: KIND_LABELS.assistant, typeName: "assistant", visibility: "conversation" };
    case "system":
      if (subtype === COMPACT_BOUNDARY) return { kind: "boundary", label: KIND_LABELS.boundary, typeName: COMPACT_BOUNDARY, visibility: "conversation" };
      return { kind: "system", label: subtype === "api_error" ? "API error" : subtype ? `System: ${words(subtype)}` : KIND_LABELS.system, typeName: subtype ? `system/${subtype}` : "system", visibility: "all", ...(subtype === "api_error" ? { isError: true } : {}) };
    case "attachment":
      return { kind: "injected", label: `Attachment${type.includes("/") ? `: ${words(type.slice(type.indexOf("/") + 1))}` : ""}`, typeName: type, visibility: "all" };
    case "progress":
      return { kind: "info", label: "Progress", typeName: "progress", visibility: "all" };
    default:
      return { kind: "other", label: KIND_LABELS.other, typeName: type, visibility: "all" };
  }
}

/** A sub-agent's line as its parent's session shows it: its prompt, its tool calls, ... */
function subagentLabel(d: EntryDescription): string {
  if (d.kind === "user") return "Sub-agent prompt";
  return `Sub-agent ${d.label.charAt(0).toLowerCase()}${d.label.slice(1)}`;
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
  const d = fragmentOf(session, facts, i, describeLine(session, i, facts.flags[i], facts.subtype[i]));
  // Inline sub-agent lines are hidden in their parent's session, not in the sub-agent's own file.
  if (facts.flags[i] & SIDECHAIN && !facts.sidechainFile) return { ...d, label: subagentLabel(d), typeName: `sidechain ${d.typeName}`, visibility: "all", subagentVisibility: d.visibility };
  return d;
}

/** Widest text of a response's row (the webview shows up to 300 characters). */
const RESPONSE_WIDTH = 200;
/** How much of a response's text stands before its tool calls, so they stay on the row. */
const TEXT_BEFORE_CALLS = 60;

/**
 * The row text of a response written over several lines, from the index's previews of
 * its lines: its text, then every tool call ("I'll look. -> Read a.ts, $ ls"); thinking
 * only when there is nothing else.
 */
function responseText(session: SessionReader, parts: readonly number[]): string {
  const t = session.table;
  const texts: string[] = [];
  const calls: string[] = [];
  const thinking: string[] = [];
  for (const k of parts) {
    const p = t.preview(k);
    if (t.toolCalls[k]) calls.push(p);
    else if (p.startsWith("(thinking")) thinking.push(p);
    else if (p) texts.push(p);
  }
  const text = texts.join(" ");
  if (!calls.length) return (text || thinking.join(" ")).slice(0, RESPONSE_WIDTH);
  const head = text.length > TEXT_BEFORE_CALLS ? `${text.slice(0, TEXT_BEFORE_CALLS - 3)}...` : text;
  const all = summarizeCalls(calls, RESPONSE_WIDTH - head.length - 4);
  return head ? `${head} -> ${all}` : all;
}

/**
 * One API response written over several lines (one per content block, same message.id)
 * is one turn: its last line is the row (its details show every block, its text every
 * call, and a fork there keeps the whole response); the earlier lines show under the
 * "all" filter only, as parts.
 */
function fragmentOf(session: SessionReader, facts: ChainFacts, i: number, d: EntryDescription): EntryDescription {
  const r = facts.response[i];
  const parts = r === undefined ? undefined : facts.fragments.get(r);
  if (!parts || parts.length < 2) return d;
  const k = parts.indexOf(i);
  if (k === parts.length - 1) {
    const calls = parts.reduce((n, p) => n + (session.table.toolCalls[p] ?? 0), 0);
    const label = calls > 1 ? "Tool calls" : calls === 1 ? KIND_LABELS["tool-call"] : d.label;
    return { ...d, label, typeName: `${d.typeName} (response of ${parts.length} lines)`, preview: responseText(session, parts) };
  }
  return { ...d, label: `${d.label} (part ${k + 1} of ${parts.length} of a response)`, typeName: `${d.typeName} (line ${k + 1} of ${parts.length} of a response)`, visibility: "all" };
}
