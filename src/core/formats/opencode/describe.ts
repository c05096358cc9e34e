import { type EntryDescription, KIND_LABELS } from "../../session/entry-kinds";
import { addPair, type EntryBlock, type EntryView, type SubagentRef } from "../../session/entry-view";
import type { SessionReader } from "../../session/session-reader";
import { COMPACTION_ROW, isCompactionType, type OcEntry, isObject } from "./records";
import { entryText, resultText } from "./text-of";

const REVERTED = " (reverted: OpenCode deletes it at the next prompt)";

/** Neutral kind and label of an OpenCode entry. */
export function describeOpencode(session: SessionReader, i: number): EntryDescription {
  const e = session.entryAt(i) as OcEntry;
  const base = describePart(e);
  return e.reverted ? { ...base, label: `${base.label}${REVERTED}` } : base;
}

function describePart(e: OcEntry): EntryDescription {
  const typeName = e.type;
  const p = e.part ?? {};
  const state = isObject(p.state) ? p.state : {};
  const summary = e.message.summary === true;
  switch (isCompactionType(e.type) ? COMPACTION_ROW : e.type) {
    case "text":
      if (e.role === "user") return { kind: p.synthetic ? "injected" : "user", label: p.synthetic ? "Synthetic prompt (sent)" : p.ignored ? "User (ignored, not sent)" : KIND_LABELS.user, typeName, visibility: "user" };
      return summary ? { kind: "summary", label: "Compaction summary", typeName, visibility: "user" } : { kind: "assistant", label: KIND_LABELS.assistant, typeName, visibility: "conversation" };
    case "reasoning":
      return { kind: "assistant", label: "Reasoning", typeName, visibility: "conversation" };
    case "tool":
      return { kind: "tool-call", label: `Tool call: ${String(p.tool ?? "")}`, typeName, visibility: "conversation", ...(state.status === "error" ? { isError: true } : {}) };
    case "tool-result": {
      const cleared = isObject(state.time) && !!state.time.compacted;
      const label = cleared ? "Tool result (cleared by pruning)" : state.status === "completed" ? KIND_LABELS["tool-result"] : state.status === "error" ? "Tool error" : "Tool result (interrupted)";
      return { kind: "tool-result", label, typeName, visibility: "conversation", ...(state.status !== "completed" ? { isError: true } : {}) };
    }
    case COMPACTION_ROW:
      return { kind: "boundary", label: `Compaction request${p.auto ? " (auto)" : ""}`, typeName, visibility: "user" };
    case "step-start":
      return { kind: "info", label: "Step start", typeName, visibility: "all" };
    case "step-finish":
      return { kind: "info", label: "Step finish", typeName, visibility: "all" };
    case "patch":
      return { kind: "info", label: "Files changed", typeName, visibility: "all" };
    case "file":
      return { kind: "user", label: "File", typeName, visibility: "user" };
    case "message":
      return { kind: e.message.error ? "info" : "other", label: e.message.error ? "Failed message (not sent)" : "Message without parts", typeName, visibility: "all", ...(e.message.error ? { isError: true } : {}) };
    default:
      return { kind: "other", label: `${KIND_LABELS.other} (${e.type}: a part type this reader does not know)`, typeName, visibility: "all" };
  }
}

/** The sub-agent a task call started: its child session, addressed in the same store. */
export function taskRefs(session: SessionReader, e: OcEntry, childAddress: (id: string) => string | undefined): SubagentRef[] {
  if (e.type !== "tool" || e.part?.tool !== "task") return [];
  const state = isObject(e.part.state) ? e.part.state : {};
  const meta = isObject(state.metadata) ? state.metadata : {};
  const id = meta.sessionId;
  if (typeof id !== "string") return [];
  const input = isObject(state.input) ? state.input : {};
  const path = childAddress(id);
  return [{ agentId: id, ...(typeof input.description === "string" ? { description: input.description } : {}), ...(typeof input.subagent_type === "string" ? { agentType: input.subagent_type } : {}), ...(path ? { path } : {}) }];
}

/** An entry for the detail pane: its text or call, and the step's usage. */
export function detailsOpencode(session: SessionReader, i: number, subs: SubagentRef[]): EntryView {
  const e = session.entryAt(i) as OcEntry;
  const p = e.part ?? {};
  const state = isObject(p.state) ? p.state : {};
  const blocks: EntryBlock[] = [];
  if (e.type === "tool") blocks.push({ kind: "toolCall", call: { name: p.tool, input: state.input, id: p.callID } });
  else if (e.type === "tool-result") blocks.push({ kind: "toolResult", text: resultText(state), answers: String(p.callID ?? ""), ...(state.status !== "completed" ? { isError: true } : {}) });
  else if (e.type === "reasoning") blocks.push({ kind: "thinking", text: entryText(e) });
  else if (e.type === "text") blocks.push({ kind: e.message.summary === true ? "summary" : "text", text: entryText(e) });
  else blocks.push({ kind: "json", text: JSON.stringify(e.part ?? e.message, null, 2) });
  const view: EntryView = { meta: [], blocks };
  const m = e.message;
  addPair(view, "message id", e.messageId);
  addPair(view, "part id", p.id);
  addPair(view, "time", Number.isFinite(e.time) ? new Date(e.time).toISOString() : undefined);
  addPair(view, "agent", m.agent ?? m.mode);
  addPair(view, "model", typeof m.modelID === "string" ? `${String(m.providerID ?? "")}/${m.modelID}` : undefined);
  if (e.type === "step-finish" && isObject(p.tokens)) {
    const t = p.tokens;
    const c = isObject(t.cache) ? t.cache : {};
    addPair(view, "tokens", `input ${String(t.input)}, output ${String(t.output)}, reasoning ${String(t.reasoning ?? 0)}, cache read ${String(c.read ?? 0)}, cache write ${String(c.write ?? 0)}`);
    addPair(view, "cost (recorded)", typeof p.cost === "number" ? `$${p.cost.toFixed(6)}` : undefined);
  }
  addPair(view, "note", e.reverted ? "a pending revert: OpenCode deletes this at the next prompt, and does not send it" : undefined);
  return subs.length ? { ...view, subagents: subs } : view;
}
