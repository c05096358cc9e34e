import { addPair, type EntryBlock, type EntryView, jsonView } from "../../session/entry-view";
import type { SessionReader } from "../../session/session-reader";
import { chainFacts } from "./chain-facts";
import { claudeCodeCompaction } from "./compaction-view";
import { subagentLink } from "./subagent-link";
import { asLine, asText, blocksOf, type ClaudeLine, contentText, isCompactBoundary } from "./lines";

/** Envelope fields shown as metadata pairs or not at all, never as the entry's JSON. */
const ENVELOPE = ["parentUuid", "isSidechain", "userType", "cwd", "sessionId", "version", "gitBranch", "type", "uuid", "timestamp", "entrypoint", "slug"];

function imageOf(b: Record<string, unknown>): EntryBlock {
  const src = (b.source ?? {}) as Record<string, unknown>;
  return { kind: "image", image: { data: src.data, mimeType: src.media_type } };
}

/** One content block as the detail pane shows it (a tool result's own images included). */
function blockView(b: Record<string, unknown>): EntryBlock[] {
  switch (b.type) {
    case "text":
      return [{ kind: "text", text: asText(b.text) }];
    case "thinking":
      return [{ kind: "thinking", text: asText(b.thinking) }];
    case "redacted_thinking":
      return [{ kind: "thinking", text: "(redacted thinking)" }];
    case "tool_use":
    case "server_tool_use":
      return [{ kind: "toolCall", title: asText(b.name), text: JSON.stringify(b.input ?? {}, null, 2), call: { name: b.name, input: b.input, id: b.id } }];
    case "tool_result": {
      const parts = Array.isArray(b.content) ? blocksOf(b.content) : [];
      const result: EntryBlock = { kind: "toolResult", title: asText(b.tool_use_id), text: typeof b.content === "string" ? b.content : contentText(parts), ...(typeof b.tool_use_id === "string" ? { answers: b.tool_use_id } : {}), ...(b.is_error === true ? { isError: true } : {}) };
      return [result, ...parts.filter((p) => p.type === "image").map(imageOf)];
    }
    case "image":
      return [imageOf(b)];
    default:
      return [{ kind: "json", text: JSON.stringify(b, null, 2) }];
  }
}

/**
 * The lines whose blocks line i shows: the last line of a response written over several
 * shows them all, in file order (describe.ts makes it the response's row); any other line
 * only its own.
 */
function responseLines(session: SessionReader, i: number): number[] {
  const facts = chainFacts(session);
  const r = facts.response[i];
  const parts = r === undefined ? undefined : facts.fragments.get(r);
  return parts && parts.length > 1 && parts[parts.length - 1] === i ? [...parts] : [i];
}

/**
 * Line i for the detail pane: user and assistant lines as their content blocks (text,
 * thinking, tool calls and results, images) with the response's id, model, stop reason
 * and flags; every other line (system, attachment, progress) as its JSON without the
 * envelope. A compact boundary also says what it records.
 */
export function claudeCodeDetails(session: SessionReader, i: number): EntryView {
  const record = session.entryAt(i);
  const l: ClaudeLine = asLine(record);
  if (l.type !== "user" && l.type !== "assistant") {
    const view = jsonView(record, ENVELOPE);
    if (isCompactBoundary(l)) {
      addPair(view, "trigger", l.compactMetadata?.trigger);
      addPair(view, "tokens before", l.compactMetadata?.preTokens);
      addPair(view, "tokens after", l.compactMetadata?.postTokens);
      addPair(view, "logical parent", l.logicalParentUuid);
      view.compaction = claudeCodeCompaction(session, i);
    }
    return view;
  }
  const view: EntryView = { meta: [], blocks: [] };
  const m = l.message;
  addPair(view, "response", m?.id);
  addPair(view, "model", m?.model);
  addPair(view, "stop reason", m?.stop_reason);
  for (const flag of ["isSidechain", "isMeta", "isCompactSummary", "isApiErrorMessage"] as const) if (l[flag] === true) addPair(view, flag, "yes");
  addPair(view, "tool call", l.sourceToolAssistantUUID);
  view.blocks = responseLines(session, i).flatMap((k) => blocksOf(asLine(session.entryAt(k)).message?.content)).flatMap(blockView);
  const subs = responseLines(session, i).map((k) => subagentLink(session, k)).filter((x) => x !== undefined);
  if (subs.length) view.subagents = subs;
  return view;
}
