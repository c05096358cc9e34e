/**
 * The one vocabulary of what tokens are spent on, for every format and every view: the
 * bars, the context parts, the per-entry counts. "system" is what the agent sends that
 * its file does not hold (system prompt, tool definitions, project instructions,
 * environment): measured from recorded usage, never an entry's; it stays last so the
 * per-entry caches keep their order (the bars draw it first, as it is sent first).
 */
export const TOKEN_KINDS = ["summary", "user", "assistant", "thinking", "toolCall", "toolResult", "image", "custom", "bash", "system"] as const;

export type TokenKind = (typeof TOKEN_KINDS)[number];
