/**
 * The neutral vocabulary every format describes its entries in. Rows, details, filters
 * and the webview speak only this; each format maps its own line types onto it.
 */
export const ENTRY_KINDS = [
  "user",
  "assistant",
  "tool-call",
  "tool-result",
  "shell",
  "summary",
  "boundary",
  "branch-summary",
  "injected",
  "label",
  "model",
  "setting",
  "info",
  "system",
  "other",
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** What a person calls each kind: the label a format starts from (and may refine). */
export const KIND_LABELS: Readonly<Record<EntryKind, string>> = {
  user: "User",
  assistant: "Assistant",
  "tool-call": "Tool call",
  "tool-result": "Tool result",
  shell: "Shell command",
  summary: "Compaction summary",
  boundary: "Compaction",
  "branch-summary": "Branch summary",
  injected: "Injected context",
  label: "Label",
  model: "Model change",
  setting: "Setting change",
  info: "Info",
  system: "System",
  other: "Other",
};

/** How a format describes one entry for rows and details. */
export interface EntryDescription {
  kind: EntryKind;
  /** Type label for a person, e.g. "User", "Tool result", "Compaction", "Sub-agent prompt". */
  label: string;
  /** The format's own name for it ("tool_result", "compact_boundary", "sidechain user"), shown second. */
  typeName?: string;
  /** The row's text when it is not the index's preview of the entry (a response written over several lines). */
  preview?: string;
  /**
   * Which row filter shows it: "user" rows appear under every filter, "conversation"
   * rows under the default one, "all" only when everything is shown.
   */
  visibility: "user" | "conversation" | "all";
  /**
   * A line of a sub-agent written inline in the session's file: which filter shows it among
   * its sub-agent's rows, nested under the call that started it (`visibility` keeps it out
   * of the session's own rows).
   */
  subagentVisibility?: "user" | "conversation" | "all";
  /** The entry carries an error (a failed tool call). */
  isError?: boolean;
}
