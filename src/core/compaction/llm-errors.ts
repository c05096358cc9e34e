import type { BudgetName } from "./budgets";
import { parseRetryAfter } from "./retry-after";
import type { APIError } from "@anthropic-ai/sdk";
import { loadAnthropicSdk } from "../lazy/lazy-bundles";

/**
 * Why a summary could not be made. `retryable` kinds are transient on the server's
 * side: we retry them with backoff, and only they may fall back to `truncate`.
 */
export type SummaryFailureKind =
  | "auth" // 401/403: the key is wrong or lacks access; retrying cannot help
  | "rate-limit" // 429
  | "overloaded" // 529
  | "server" // other 5xx
  | "network" // connection refused/reset, stream cut
  | "timeout" // a time budget ran out (see SummaryBudgets)
  | "bad-request" // other 4xx: model name, max_tokens, prompt too long...
  | "bad-response" // an answer we cannot read (malformed JSON, no text)
  | "cancelled"; // the caller's AbortSignal

const RETRYABLE = new Set<SummaryFailureKind>(["rate-limit", "overloaded", "server", "network", "timeout"]);

export class SummaryError extends Error {
  constructor(
    readonly kind: SummaryFailureKind,
    message: string,
    readonly status?: number,
    readonly attempts = 1,
    /** The server's retry-after (or retry-after-ms), kept from the API error's headers. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "SummaryError";
  }

  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
}

/** A time budget ran out (see SummaryBudgets); `total` means no retry can follow. */
export class BudgetError extends SummaryError {
  constructor(
    readonly budget: BudgetName,
    message: string,
    attempts = 1,
  ) {
    super("timeout", message, undefined, attempts);
    this.name = "BudgetError";
  }
}

export class CancelledError extends SummaryError {
  constructor(what = "summary request") {
    super("cancelled", `${what} cancelled; nothing written`);
    this.name = "CancelledError";
  }
}

function apiDetail(err: APIError): string {
  const msg = err.apiMessage ?? err.message;
  return msg.replace(/\s+/g, " ").slice(0, 200);
}

/**
 * Maps whatever the SDK threw to one kind and a one-line message without the key. An
 * API error's retry-after travels on the result: the raw error (and its headers) is
 * gone once it is classified.
 */
export function classifyError(err: unknown, ctx: { model: string; baseURL: string; timedOut: boolean; cancelled: boolean; now?: number }): SummaryError {
  const e = classifyKind(err, ctx);
  const { APIError } = loadAnthropicSdk();
  const wait = err instanceof APIError && !(err instanceof SummaryError) ? parseRetryAfter(err.headers, ctx.now ?? Date.now()) : undefined;
  return wait === undefined || e.retryAfterMs !== undefined ? e : new SummaryError(e.kind, e.message, e.status, e.attempts, wait);
}

function classifyKind(err: unknown, ctx: { model: string; baseURL: string; timedOut: boolean; cancelled: boolean }): SummaryError {
  if (err instanceof SummaryError) return err;
  // Only errors of the SDK's own bundle (lazy-bundles.ts) can pass these instanceof checks.
  const { AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = loadAnthropicSdk();
  if (ctx.cancelled) return new CancelledError();
  if (ctx.timedOut || err instanceof APIConnectionTimeoutError) return new SummaryError("timeout", `no answer from ${ctx.baseURL} in time`);
  if (err instanceof APIUserAbortError) return new CancelledError();
  // The stream helper wraps what broke inside it (a JSON.parse SyntaxError, a socket
  // error) in a bare AnthropicError; the cause says what it was.
  const cause = (err as { cause?: unknown })?.cause;
  if (err instanceof AnthropicError && !(err instanceof APIError) && cause instanceof Error) return classifyKind(cause, ctx);
  if (err instanceof APIConnectionError) return new SummaryError("network", `cannot reach ${ctx.baseURL}: ${err.cause instanceof Error ? err.cause.message : err.message}`);
  if (err instanceof APIError && typeof err.status === "number") {
    const s = err.status;
    if (s === 401) return new SummaryError("auth", `the API key was rejected (401): ${apiDetail(err)}`, s);
    if (s === 403) return new SummaryError("auth", `the API key may not use this (403): ${apiDetail(err)}`, s);
    if (s === 429) return new SummaryError("rate-limit", `rate limited (429): ${apiDetail(err)}`, s);
    if (s === 529) return new SummaryError("overloaded", `the API is overloaded (529): ${apiDetail(err)}`, s);
    if (s >= 500) return new SummaryError("server", `server error (${s}): ${apiDetail(err)}`, s);
    if (s === 404) return new SummaryError("bad-request", `not found (404), check the model "${ctx.model}" and the base URL: ${apiDetail(err)}`, s);
    return new SummaryError("bad-request", `request refused (${s}): ${apiDetail(err)}`, s);
  }
  if (err instanceof APIError) {
    // An APIError without a status is how the SDK reports a broken or garbled stream.
    return new SummaryError("network", `the response stream broke: ${err.message}`);
  }
  if (err instanceof AnthropicError && /without (sending any chunks|producing a message)/i.test(err.message)) {
    // A 200 whose body holds no events: an HTML page from a proxy, or another API.
    return new SummaryError("bad-response", `the answer from ${ctx.baseURL} was not a Messages API stream: ${err.message}`);
  }
  if (err instanceof SyntaxError) return new SummaryError("bad-response", `the API sent a response that is not valid JSON: ${err.message}`);
  const e = err as NodeJS.ErrnoException;
  if (e && (e.code === "ECONNRESET" || e.code === "ECONNREFUSED" || e.name === "TypeError" || /terminated|socket|network/i.test(String(e.message)))) {
    return new SummaryError("network", `connection to ${ctx.baseURL} failed: ${e.message}`);
  }
  return new SummaryError("bad-response", `unexpected answer from the API: ${(err as Error)?.message ?? String(err)}`);
}
