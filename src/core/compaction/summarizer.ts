import Anthropic from "@anthropic-ai/sdk";
import { CancelledError, classifyError, SummaryError } from "./llm-errors";

/** How to reach the Messages API. The caller owns the key (env var, secret store). */
export interface LlmOptions {
  apiKey: string;
  /** Default https://api.anthropic.com; proxies and compatible endpoints go here. */
  baseURL?: string;
  /** Model id; when absent the compaction picks one (see resolveSummaryModel). */
  model?: string;
  /** Per attempt: time to the first byte, and the longest silence inside a stream. Default 120 s. */
  timeoutMs?: number;
  /** Stream the answer (progress as text arrives). Default true. */
  stream?: boolean;
  retry?: Partial<RetryPolicy>;
  /**
   * Model to try once when `model` is not found (404): set when the model is merely the
   * session's own, which may have been retired since the session was recorded.
   */
  fallbackModel?: string;
}

export interface RetryPolicy {
  /** Total tries, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Injectable so tests do not wait; must reject when the signal aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const DEFAULT_BASE_URL = "https://api.anthropic.com";
export const DEFAULT_TIMEOUT_MS = 120_000;

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError());
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(new CancelledError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000, sleep: abortableSleep };

/** Which request a progress event is about (a split turn runs two in parallel). */
export type SummaryPart = "history" | "turn-prefix" | "branch";

export type SummaryProgress =
  | { type: "request"; part: SummaryPart; attempt: number; model: string }
  | { type: "text"; part: SummaryPart; chars: number }
  | { type: "retry"; part: SummaryPart; attempt: number; delayMs: number; reason: string }
  | { type: "done"; part: SummaryPart; outputTokens?: number; stopReason?: string | null };

export interface SummaryRequest {
  part: SummaryPart;
  system: string;
  prompt: string;
  maxTokens: number;
}

export interface SummaryUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface SummaryResult {
  text: string;
  usage: SummaryUsage;
  stopReason: string | null;
  attempts: number;
  /** The model that answered (the fallback model after a 404, see LlmOptions.fallbackModel). */
  model: string;
}

/** Exponential backoff with jitter, or the server's retry-after when it sends one. */
function backoff(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return Math.min(retryAfterMs, policy.maxDelayMs);
  const exp = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxDelayMs, Math.round(exp * (0.75 + Math.random() * 0.5)));
}

function retryAfter(err: unknown): number | undefined {
  const headers = (err as { headers?: Headers }).headers;
  if (!headers || typeof headers.get !== "function") return undefined;
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.get("retry-after-ms") !== null && Number.isFinite(ms)) return ms;
  const s = Number(headers.get("retry-after"));
  return headers.get("retry-after") !== null && Number.isFinite(s) ? s * 1000 : undefined;
}

/**
 * One summary through the official SDK. The SDK's own retries are off so that the
 * backoff is ours (injectable, cancellable, reported). Resolves only with a complete,
 * non-empty answer; everything else is a SummaryError.
 */
export async function requestSummary(
  req: SummaryRequest,
  opts: LlmOptions & { model: string; signal?: AbortSignal; onProgress?: (p: SummaryProgress) => void },
): Promise<SummaryResult> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const baseURL = opts.baseURL || DEFAULT_BASE_URL;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // authToken null: never pick up credentials from the environment behind the caller's back.
  const client = new Anthropic({ apiKey: opts.apiKey, authToken: null, baseURL, maxRetries: 0, timeout: timeoutMs });
  let model = opts.model;
  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) throw new CancelledError();
    opts.onProgress?.({ type: "request", part: req.part, attempt, model });
    try {
      const res = await oneAttempt(client, req, { ...opts, model }, timeoutMs);
      opts.onProgress?.({ type: "done", part: req.part, outputTokens: res.usage.output, stopReason: res.stopReason });
      return { ...res, attempts: attempt, model };
    } catch (raw) {
      const err = raw instanceof SummaryError ? raw : classifyError(raw, { model, baseURL, timedOut: false, cancelled: !!opts.signal?.aborted });
      if (err.status === 404 && opts.fallbackModel && model !== opts.fallbackModel && !opts.signal?.aborted) {
        opts.onProgress?.({ type: "retry", part: req.part, attempt, delayMs: 0, reason: `${err.message}; trying ${opts.fallbackModel}` });
        model = opts.fallbackModel;
        continue;
      }
      if (!err.retryable || attempt >= policy.maxAttempts) {
        throw new SummaryError(err.kind, attempt > 1 ? `${err.message} (after ${attempt} attempts)` : err.message, err.status, attempt);
      }
      const delayMs = backoff(policy, attempt, retryAfter(raw));
      opts.onProgress?.({ type: "retry", part: req.part, attempt, delayMs, reason: err.message });
      await policy.sleep(delayMs, opts.signal);
    }
  }
}

async function oneAttempt(
  client: Anthropic,
  req: SummaryRequest,
  opts: LlmOptions & { model: string; signal?: AbortSignal; onProgress?: (p: SummaryProgress) => void },
  timeoutMs: number,
): Promise<Omit<SummaryResult, "attempts" | "model">> {
  // One controller per attempt: the caller's signal and our silence watchdog both end it.
  const ctl = new AbortController();
  let timedOut = false;
  const onCallerAbort = () => ctl.abort();
  opts.signal?.addEventListener("abort", onCallerAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      ctl.abort();
    }, timeoutMs);
  };
  const params = {
    model: opts.model,
    max_tokens: req.maxTokens,
    system: req.system,
    messages: [{ role: "user" as const, content: req.prompt }],
  };
  const baseURL = opts.baseURL || DEFAULT_BASE_URL;
  try {
    arm();
    let message: Anthropic.Message;
    if (opts.stream === false) {
      message = await client.messages.create(params, { signal: ctl.signal });
    } else {
      const stream = client.messages.stream(params, { signal: ctl.signal });
      let chars = 0;
      stream.on("streamEvent", () => arm());
      stream.on("text", (delta) => {
        chars += delta.length;
        opts.onProgress?.({ type: "text", part: req.part, chars });
      });
      message = await stream.finalMessage();
    }
    if (opts.signal?.aborted) throw new CancelledError();
    const text = readText(message);
    if (!text.trim()) throw new SummaryError("bad-response", `the model returned no text (stop reason: ${message?.stop_reason ?? "none"})`);
    const u = message.usage;
    return {
      text,
      stopReason: message.stop_reason ?? null,
      usage: { input: u?.input_tokens ?? 0, output: u?.output_tokens ?? 0, cacheRead: u?.cache_read_input_tokens ?? 0, cacheWrite: u?.cache_creation_input_tokens ?? 0 },
    };
  } catch (err) {
    throw classifyError(err, { model: opts.model, baseURL, timedOut, cancelled: !!opts.signal?.aborted });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onCallerAbort);
  }
}

/** The text blocks of an answer; anything not shaped like a Message is a bad response. */
function readText(message: unknown): string {
  const content = (message as { content?: unknown })?.content;
  if (!Array.isArray(content)) throw new SummaryError("bad-response", "the API answer has no content list");
  return content
    .filter((b): b is { type: "text"; text: string } => !!b && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");
}
