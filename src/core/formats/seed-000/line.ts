import { jsonTextDeeperThan, TOO_DEEP } from "../../util/json-depth";

/**
 * One line of a seed-000 session (claude-code-format.md 15.1): a plain id/parentId tree.
 * `tool_call.content` is a JSON string `{name, input}`; a `tool_result` answers its parent.
 */
export const SEED000_TYPES = ["user", "assistant", "tool_call", "tool_result"] as const;
export type Seed000Type = (typeof SEED000_TYPES)[number];

export interface Seed000Line {
  id: string;
  /** null at a root. */
  parentId: string | null;
  /** ms since the epoch. */
  timestamp: number;
  type: Seed000Type;
  content: string;
  metadata?: {
    cwd?: string;
    model?: string;
    usage?: { input_tokens?: number; output_tokens?: number };
    [key: string]: unknown;
  };
}

/** What a tool_call's content holds once parsed. */
export interface Seed000ToolCall {
  name: string;
  input: unknown;
}

export function isSeed000Type(v: unknown): v is Seed000Type {
  return typeof v === "string" && (SEED000_TYPES as readonly string[]).includes(v);
}

/** A tool_call's `{name, input}`, or undefined when its content is not that JSON. */
export function parseToolCall(content: string): Seed000ToolCall | undefined {
  // Too deep to walk safely: reported as the line's problem like any content that is not {name, input}.
  if (jsonTextDeeperThan(content)) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.name !== "string") return undefined;
  return { name: o.name, input: o.input ?? {} };
}

/**
 * What is wrong with a parsed line, naming the field and what was expected, or
 * undefined for a well-formed line. Never quotes the line's values (untrusted text).
 */
export function lineProblem(e: Record<string, unknown>): string | undefined {
  if (typeof e.id !== "string" || !e.id) return "no id (expected a non-empty string)";
  if (e.parentId !== null && typeof e.parentId !== "string") return `entry ${e.id}: parentId is ${kindOf(e.parentId)} (expected a string, or null at a root)`;
  if (!isSeed000Type(e.type)) return `entry ${e.id}: type is ${typeof e.type === "string" ? "not one of" : `${kindOf(e.type)}, expected one of`} ${SEED000_TYPES.join("|")}`;
  if (typeof e.content !== "string") return `entry ${e.id}: content is ${kindOf(e.content)} (expected a string)`;
  if (e.type === "tool_call" && jsonTextDeeperThan(e.content)) return `entry ${e.id}: tool_call content ${TOO_DEEP.replace("the line is skipped", "the entry is skipped")}`;
  if (e.type === "tool_call" && !parseToolCall(e.content)) return `entry ${e.id}: tool_call content is not the JSON string {name, input}`;
  return undefined;
}

/** The detection test of 15.1: every field of the envelope with its type. */
export function looksLikeSeed000(v: unknown): boolean {
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const e = v as Record<string, unknown>;
  return (
    typeof e.id === "string" &&
    (e.parentId === null || typeof e.parentId === "string") &&
    typeof e.timestamp === "number" &&
    isSeed000Type(e.type) &&
    typeof e.content === "string"
  );
}

function kindOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}
