import type { EntryKind } from "./core/session/entry-kinds";

/** One codicon per neutral kind, for the explorer's rows and the Search Results view alike. */
export const KIND_ICONS: Record<EntryKind, string> = {
  user: "account",
  assistant: "hubot",
  "tool-call": "tools",
  "tool-result": "output",
  shell: "terminal",
  summary: "fold",
  boundary: "fold",
  "branch-summary": "git-merge",
  injected: "comment",
  label: "tag",
  model: "settings-gear",
  setting: "lightbulb",
  info: "info",
  system: "gear",
  other: "extensions",
};
