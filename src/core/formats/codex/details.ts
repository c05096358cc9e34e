import { addPair, type EntryBlock, type EntryView, jsonView } from "../../session/entry-view";
import type { SessionReader } from "../../session/session-reader";
import { looksFailed } from "./describe";
import { callInput } from "./index-hooks";
import { asObj, type CodexLine, contentText, payloadOf, str } from "./lines";

/** A message's content items as blocks (text of any kind; anything else as JSON). */
function contentBlocks(content: unknown): EntryBlock[] {
  if (!Array.isArray(content)) return typeof content === "string" ? [{ kind: "text", text: content }] : [];
  return content.map((c): EntryBlock => {
    const o = asObj(c);
    return o && typeof o.text === "string" ? { kind: "text", text: o.text } : { kind: "json", text: JSON.stringify(c, null, 2) };
  });
}

function outputText(output: unknown): string {
  return typeof output === "string" ? output : contentText(output) || JSON.stringify(output ?? "", null, 2);
}

/** A history item's blocks: text, reasoning summaries (encrypted content never decoded), calls and outputs. */
function itemView(p: Record<string, unknown>): EntryView {
  const view: EntryView = { meta: [], blocks: [] };
  addPair(view, "item", p.type);
  addPair(view, "role", p.role);
  addPair(view, "id", p.id);
  addPair(view, "status", p.status);
  switch (p.type) {
    case "message":
      view.blocks = contentBlocks(p.content);
      break;
    case "reasoning": {
      const summary = Array.isArray(p.summary) ? p.summary : [];
      view.blocks = summary.map((s) => ({ kind: "thinking" as const, text: str(asObj(s)?.text) ?? JSON.stringify(s) }));
      if (Array.isArray(p.content)) for (const c of p.content) view.blocks.push({ kind: "thinking", title: "reasoning text", text: str(asObj(c)?.text) ?? JSON.stringify(c) });
      if (typeof p.encrypted_content === "string") addPair(view, "encrypted reasoning", `${p.encrypted_content.length} characters, not decoded`);
      break;
    }
    case "function_call": {
      const input = callInput(p.arguments);
      view.blocks = [{ kind: "toolCall", title: String(p.name ?? "?"), text: JSON.stringify(input, null, 2), call: { name: p.name, input, id: p.call_id } }];
      addPair(view, "call", p.call_id);
      break;
    }
    case "custom_tool_call":
      view.blocks = [{ kind: "toolCall", title: String(p.name ?? "?"), text: typeof p.input === "string" ? p.input : JSON.stringify(p.input, null, 2), call: { name: p.name, input: { input: p.input }, id: p.call_id } }];
      addPair(view, "call", p.call_id);
      break;
    case "function_call_output":
    case "custom_tool_call_output": {
      const text = outputText(p.output);
      view.blocks = [{ kind: "toolResult", title: String(p.call_id ?? "?"), text, ...(typeof p.call_id === "string" ? { answers: p.call_id } : {}), ...(looksFailed(text) ? { isError: true } : {}) }];
      break;
    }
    default:
      view.blocks = [{ kind: "json", text: JSON.stringify(p, null, 2) }];
  }
  return view;
}

/**
 * Line i for the detail pane: a history item as its blocks; a compaction with its summary
 * and what it kept (replacement_history); any other line (events, turn context, usage,
 * unknown types) as its JSON. The time and ordinal are shown as pairs.
 */
export function codexDetails(session: SessionReader, i: number): EntryView {
  const l = session.entryAt(i) as CodexLine;
  const p = payloadOf(l);
  let view: EntryView;
  if (l.type === "response_item") view = itemView(p);
  else {
    view = jsonView(p, l.type === "compacted" ? ["replacement_history", "replacement_history_metadata"] : []);
    addPair(view, "line type", l.type);
    if (l.type === "event_msg") addPair(view, "event", p.type);
  }
  addPair(view, "ordinal", l.ordinal);
  addPair(view, "time", l.timestamp);
  if (l.type === "compacted") {
    const kept = Array.isArray(p.replacement_history) ? p.replacement_history : [];
    addPair(view, "kept items", kept.length);
    const usage = asObj(asObj(p.latest_token_usage_record)?.usage);
    view.compaction = { summary: str(p.message) ?? "", readFiles: [], modifiedFiles: [], tokensBefore: typeof usage?.input_tokens === "number" ? usage.input_tokens : 0 };
    view.blocks.unshift({ kind: "summary", title: "replacement history (what the model sees from here on)", text: kept.map((k) => `${String(asObj(k)?.role ?? asObj(k)?.type ?? "?")}: ${contentText(asObj(k)?.content).slice(0, 2000)}`).join("\n\n") });
  }
  return view;
}
