/** A model as a session records it: its provider and its id. */
export interface ModelRef {
  provider: string;
  modelId: string;
}

/**
 * The model summaries are asked of when the session's own model is not an Anthropic one
 * (we only talk to the Anthropic Messages API) or the session has no model yet.
 */
export const DEFAULT_SUMMARY_MODEL = "claude-sonnet-4-6";

/** The model to summarize with: the caller's, else the session's when it is Anthropic's. */
export function resolveSummaryModel(sessionModel: ModelRef | null, requested?: string): { model: string; source: "requested" | "session" | "default" } {
  if (requested) return { model: requested, source: "requested" };
  if (sessionModel && sessionModel.provider === "anthropic" && sessionModel.modelId) return { model: sessionModel.modelId, source: "session" };
  return { model: DEFAULT_SUMMARY_MODEL, source: "default" };
}

/**
 * The model to try once when the summary model is not found (404): the default, when the
 * model was merely the session's own, which may have been retired since it was recorded.
 * A model the caller named is never swapped.
 */
export function summaryFallbackModel(source: "requested" | "session" | "default"): string | undefined {
  return source === "session" ? DEFAULT_SUMMARY_MODEL : undefined;
}

