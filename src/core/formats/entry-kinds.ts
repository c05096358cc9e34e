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

/** How a format describes one entry for rows and details. */
export interface EntryDescription {
  kind: EntryKind;
  /** Short type label shown on the row, e.g. "user", "tool_result", "compact_boundary". */
  label: string;
  /**
   * Which row filter shows it: "user" rows appear under every filter, "conversation"
   * rows under the default one, "all" only when everything is shown.
   */
  visibility: "user" | "conversation" | "all";
  /** The entry carries an error (a failed tool call). */
  isError?: boolean;
}
