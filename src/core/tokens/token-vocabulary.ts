/**
 * The one vocabulary of what tokens are spent on, for every format and every view: the
 * bars, the context parts, the per-entry counts. In drawing order.
 */
export const TOKEN_KINDS = ["summary", "user", "assistant", "thinking", "toolCall", "toolResult", "image", "custom", "bash"] as const;

export type TokenKind = (typeof TOKEN_KINDS)[number];
