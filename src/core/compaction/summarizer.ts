import type Anthropic from "@anthropic-ai/sdk";
import { loadAnthropicSdk } from "../lazy/lazy-bundles";
import { type BudgetName, seconds, type SummaryBudgets, withBudgetDefaults } from "./budgets";
import { BudgetError, CancelledError, classifyError, SummaryError } from "./llm-errors";
import { captureConsoleWarn, firstLine, sdkLogger } from "./sdk-notes";

/** How to reach the Messages API. The caller owns the key (env var, secret store). */
export interface LlmOptions {
  apiKey: string;
  /** Default https://api.anthropic.com; proxies and compatible endpoints go here. */
  baseURL?: string;
  /** Model id; when absent the compaction picks one (see resolveSummaryModel). */
  model?: string;
  /** Time budgets (idle, per attempt, overall); defaults 60 s, 180 s, 300 s. */
  budgets?: Partial<SummaryBudgets>;
  /** Injectable clock (ms) for the overall deadline and HTTP-date retry-after; default Date.now. */
  clock?: () => number;
  /** How often a "wait" progress event reports the time waited. Default 1000 ms. */
  progressIntervalMs?: number;
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
  | { type: "retry"; part: SummaryPart; attempt: number; delayMs: number; reason: string; waitedMs: number; budgetMs: number }
  /** Sent every progressIntervalMs while the request (or a wait before a retry) is under way. */
  | { type: "wait"; part: SummaryPart; attempt: number; waitedMs: number; budgetMs: number }
  /** Something the SDK printed (e.g. a model deprecation notice), first line only, once per request. */
  | { type: "warning"; part: SummaryPart; message: string }
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

/**
 * The server's retry-after when it sends one (in full: the overall deadline decides
 * whether we can afford it), else exponential backoff with jitter.
 */
function backoff(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) return retryAfterMs;
  const exp = policy.baseDelayMs * 2 ** (attempt - 1);
  return Math.min(policy.maxDelayMs, Math.round(exp * (0.75 + Math.random() * 0.5)));
}

type CallOptions = LlmOptions & { model: string; signal?: AbortSignal; onProgress?: (p: SummaryProgress) => void };

/**
 * One summary through the official SDK. The SDK's own retries are off so that the
 * backoff is ours (injectable, cancellable, reported), and every attempt and wait fits
 * inside one overall deadline. Resolves only with a complete, non-empty answer;
 * everything else is a SummaryError whose message says what ran out and how long we waited.
 */
export async function requestSummary(req: SummaryRequest, opts: CallOptions): Promise<SummaryResult> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry };
  const budgets = withBudgetDefaults(opts.budgets);
  const clock = opts.clock ?? Date.now;
  const baseURL = opts.baseURL || DEFAULT_BASE_URL;
  const started = clock();
  const deadline = started + budgets.totalMs;
  const waited = () => clock() - started;
  const tally = (n: number) => (n === 1 ? ` (waited ${seconds(waited())}, 1 attempt)` : ` (after ${n} attempts, waited ${seconds(waited())})`);
  const seen = new Set<string>();
  const warn = (text: string) => {
    const line = firstLine(text);
    if (!line || seen.has(line)) return;
    seen.add(line);
    opts.onProgress?.({ type: "warning", part: req.part, message: line });
  };
  let model = opts.model;
  let attempt = 0;
  const beat = opts.onProgress
    ? setInterval(() => opts.onProgress?.({ type: "wait", part: req.part, attempt, waitedMs: waited(), budgetMs: budgets.totalMs }), opts.progressIntervalMs ?? 1000)
    : undefined;
  beat?.unref?.();
  try {
    for (attempt = 1; ; attempt++) {
      if (opts.signal?.aborted) throw new CancelledError();
      const remaining = deadline - clock();
      if (remaining <= 0) throw new BudgetError("total", `no answer within the ${seconds(budgets.totalMs)} budget${tally(attempt - 1)}`, attempt - 1);
      opts.onProgress?.({ type: "request", part: req.part, attempt, model });
      const limits: AttemptLimits = {
        idleMs: budgets.idleMs,
        attemptMs: Math.min(budgets.attemptMs, remaining),
        attemptCut: budgets.attemptMs <= remaining ? "attempt" : "total",
        budgets,
        clock,
      };
      try {
        const res = await oneAttempt(req, { ...opts, model }, limits, warn);
        opts.onProgress?.({ type: "done", part: req.part, outputTokens: res.usage.output, stopReason: res.stopReason });
        return { ...res, attempts: attempt, model };
      } catch (raw) {
        const err = raw instanceof SummaryError ? raw : classifyError(raw, { model, baseURL, timedOut: false, cancelled: !!opts.signal?.aborted, now: clock() });
        if (err.kind === "cancelled") throw err;
        if (err.status === 404 && opts.fallbackModel && model !== opts.fallbackModel) {
          opts.onProgress?.({ type: "retry", part: req.part, attempt, delayMs: 0, reason: `${err.message}; trying ${opts.fallbackModel}`, waitedMs: waited(), budgetMs: budgets.totalMs });
          model = opts.fallbackModel;
          continue;
        }
        const spent = err instanceof BudgetError && err.budget === "total";
        if (spent || !err.retryable || attempt >= policy.maxAttempts) {
          const msg = spent || attempt > 1 || err.kind === "timeout" ? `${err.message}${tally(attempt)}` : err.message;
          throw err instanceof BudgetError ? new BudgetError(err.budget, msg, attempt) : new SummaryError(err.kind, msg, err.status, attempt, err.retryAfterMs);
        }
        const delayMs = backoff(policy, attempt, err.retryAfterMs);
        if (clock() + delayMs >= deadline) {
          throw new SummaryError(
            err.kind,
            `${err.message}; gave up: waiting ${seconds(delayMs)} to retry would pass the ${seconds(budgets.totalMs)} budget${tally(attempt)}`,
            err.status,
            attempt,
            err.retryAfterMs,
          );
        }
        opts.onProgress?.({ type: "retry", part: req.part, attempt, delayMs, reason: err.message, waitedMs: waited(), budgetMs: budgets.totalMs });
        await policy.sleep(delayMs, opts.signal);
      }
    }
  } finally {
    clearInterval(beat);
  }
}

interface AttemptLimits {
  idleMs: number;
  /** This attempt's cut-off: the per-attempt budget, or what is left of the overall one. */
  attemptMs: number;
  /** Which budget `attemptMs` stands for. */
  attemptCut: BudgetName;
  budgets: SummaryBudgets;
  clock: () => number;
}

/**
 * A fetch that reports every chunk of the response body as it arrives, so the idle
 * budget counts silence in bytes (pings and partial events included), not parsed events.
 */
function watchedFetch(onBytes: () => void): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const res = await fetch(input, init);
    onBytes();
    if (!res.body) return res;
    const seen = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        onBytes();
        out.enqueue(chunk);
      },
    });
    return new Response(res.body.pipeThrough(seen), { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

function budgetMessage(cut: BudgetName, limits: AttemptLimits, baseURL: string): string {
  if (cut === "idle") return `no data from ${baseURL} for ${seconds(limits.idleMs)} (the idle budget)`;
  if (cut === "attempt") return `no complete answer from ${baseURL} within the ${seconds(limits.budgets.attemptMs)} per-attempt budget`;
  return `no answer within the ${seconds(limits.budgets.totalMs)} budget`;
}

async function oneAttempt(req: SummaryRequest, opts: CallOptions, limits: AttemptLimits, warn: (text: string) => void): Promise<Omit<SummaryResult, "attempts" | "model">> {
  // One controller per attempt: the caller's signal and our budget timers all end it.
  const ctl = new AbortController();
  let cut: BudgetName | undefined;
  const stop = (why: BudgetName) => {
    if (cut) return;
    cut = why;
    ctl.abort();
  };
  const onCallerAbort = () => ctl.abort();
  opts.signal?.addEventListener("abort", onCallerAbort, { once: true });
  if (opts.signal?.aborted) ctl.abort();
  const streaming = opts.stream !== false;
  let idle: NodeJS.Timeout | undefined;
  // Silence is only measured in a stream: a non-streamed answer says nothing until it is whole.
  const touch = () => {
    if (!streaming || cut) return;
    clearTimeout(idle);
    idle = setTimeout(() => stop("idle"), limits.idleMs);
  };
  const whole = setTimeout(() => stop(limits.attemptCut), limits.attemptMs);
  const baseURL = opts.baseURL || DEFAULT_BASE_URL;
  // authToken null: never pick up credentials from the environment behind the caller's back.
  // The SDK's own timeout (time to headers) is only a backstop behind ours.
  const { Anthropic: Client } = loadAnthropicSdk();
  const client = new Client({
    apiKey: opts.apiKey,
    authToken: null,
    baseURL,
    maxRetries: 0,
    timeout: limits.attemptMs + 1000,
    fetch: watchedFetch(touch),
    logger: sdkLogger(warn),
    logLevel: "warn",
  });
  const params = {
    model: opts.model,
    max_tokens: req.maxTokens,
    system: req.system,
    messages: [{ role: "user" as const, content: req.prompt }],
  };
  try {
    touch();
    let message: Anthropic.Message;
    if (!streaming) {
      message = await captureConsoleWarn(warn, () => client.messages.create(params, { signal: ctl.signal }));
    } else {
      const stream = captureConsoleWarn(warn, () => client.messages.stream(params, { signal: ctl.signal }));
      let chars = 0;
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
    if (opts.signal?.aborted) throw new CancelledError();
    if (cut) throw new BudgetError(cut, budgetMessage(cut, limits, baseURL));
    throw classifyError(err, { model: opts.model, baseURL, timedOut: false, cancelled: false, now: limits.clock() });
  } finally {
    clearTimeout(idle);
    clearTimeout(whole);
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
