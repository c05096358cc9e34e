import type { PartKind } from "../../session/session-format";
import { parseToolCall, type Seed000Type } from "./line";

/** A content block of a seed-000 message (the Anthropic Messages shape the seed sends). */
export type Seed000Block =
  | { type: "tool_use"; id: string; name: string; input: unknown }
  | { type: "tool_result"; tool_use_id: string; content: string };

/** One message of the context the seed-000 agent sends. */
export interface Seed000Message {
  role: "user" | "assistant";
  content: string | Seed000Block[];
}

/** The bars' token kind of each line type. */
export const PART_KIND: Record<Seed000Type, PartKind> = {
  user: "user",
  assistant: "assistant",
  tool_call: "toolCall",
  tool_result: "toolResult",
};

/** The message role each line type becomes (what the index keeps as the role). */
export const ROLE: Record<Seed000Type, Seed000Message["role"]> = {
  user: "user",
  assistant: "assistant",
  tool_call: "assistant",
  tool_result: "user",
};

/**
 * The one entry -> message conversion of the format (15.1). No merging of consecutive
 * messages of the same role. A tool_result answers its parent: `tool_use_id` is its
 * parentId ("" for a tool_result at a root, which answers nothing). A tool_call whose
 * content is not `{name, input}` never gets here: the index skips it as a bad line.
 */
export function entryToMessage(e: Record<string, unknown>): Seed000Message {
  const content = typeof e.content === "string" ? e.content : "";
  const id = String(e.id);
  switch (e.type) {
    case "assistant":
      return { role: "assistant", content };
    case "tool_call": {
      const call = parseToolCall(content);
      if (!call) throw new Error(`seed-000 entry ${id}: tool_call content is not the JSON string {name, input}`);
      return { role: "assistant", content: [{ type: "tool_use", id, name: call.name, input: call.input }] };
    }
    case "tool_result":
      return { role: "user", content: [{ type: "tool_result", tool_use_id: typeof e.parentId === "string" ? e.parentId : "", content }] };
    case "user":
      return { role: "user", content };
    default:
      throw new Error(`seed-000 entry ${id}: type is not one of user|assistant|tool_call|tool_result`);
  }
}
