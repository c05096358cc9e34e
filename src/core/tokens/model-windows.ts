/** pi's default compaction reserve (settings compaction.reserveTokens). */
export const DEFAULT_RESERVE_TOKENS = 16384;

/** Used when a model is in neither the overrides nor the table; reported as `source: "default"`. */
export const FALLBACK_CONTEXT_WINDOW = 128000;

/**
 * Context windows by model id prefix, longest prefix wins. Standard windows only: a
 * larger window behind a beta flag (e.g. 1M for some Claude models) must come from an
 * override, since the session file does not say which one was used.
 */
export const KNOWN_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  "claude-": 200000,
  "gpt-5": 400000,
  "gpt-4.1": 1047576,
  "gpt-4o": 128000,
  "gpt-4-turbo": 128000,
  "gpt-4": 8192,
  "gpt-3.5-turbo": 16385,
  o1: 200000,
  "o1-mini": 128000,
  o3: 200000,
  "o4-mini": 200000,
  "codex-mini": 200000,
  "gemini-1.5-pro": 2097152,
  "gemini-1.5-flash": 1048576,
  "gemini-2.0": 1048576,
  "gemini-2.5": 1048576,
  "gemini-3": 1048576,
  "grok-3": 131072,
  "grok-4": 256000,
  "grok-code-fast": 256000,
  "deepseek-": 128000,
  "kimi-k2": 262144,
  "glm-4.5": 131072,
  "glm-4.6": 204800,
  "qwen3-coder": 262144,
  "mistral-large": 131072,
  "devstral": 131072,
};

export interface ContextWindow {
  tokens: number;
  /** "recorded": the session file says it (Codex writes model_context_window). */
  source: "override" | "table" | "default" | "recorded";
}

function longestPrefix(table: Readonly<Record<string, number>>, modelId: string): number | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (modelId.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * The window for a model id. Overrides (a setting; exact id or prefix) beat the table.
 * Provider prefixes like "anthropic/claude-..." (OpenRouter style) are stripped first.
 */
export function contextWindowFor(modelId: string | undefined, overrides: Readonly<Record<string, number>> = {}): ContextWindow {
  const id = (modelId ?? "").toLowerCase();
  const bare = id.includes("/") ? id.slice(id.lastIndexOf("/") + 1) : id;
  for (const candidate of [id, bare]) {
    const o = overrides[candidate] ?? longestPrefix(overrides, candidate);
    if (o !== undefined) return { tokens: o, source: "override" };
  }
  const t = longestPrefix(KNOWN_CONTEXT_WINDOWS, bare);
  return t !== undefined ? { tokens: t, source: "table" } : { tokens: FALLBACK_CONTEXT_WINDOW, source: "default" };
}

/** pi's trigger: compact when contextTokens > contextWindow - reserveTokens. */
export function compactionThreshold(contextWindow: number, reserveTokens = DEFAULT_RESERVE_TOKENS): number {
  return Math.max(0, contextWindow - reserveTokens);
}
