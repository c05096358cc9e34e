import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { AnthropicRequestBody } from "../context/render-anthropic";
import { loadAnthropicSdk } from "../../../lazy/lazy-bundles";
import { writeNewFile } from "../../../store/atomic-file";
import { readTextFile } from "../../../util/safe-open";

export interface AnthropicCountOptions {
  apiKey: string;
  baseURL?: string;
  /** JSON file remembering counts by request hash; a repeated count costs no request. */
  cachePath?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface AnthropicCount {
  /** The provider's own count of the request's input tokens: exact for Claude. */
  inputTokens: number;
  model: string;
  cached: boolean;
}

type CacheFile = { format: 1; counts: Record<string, number> };

function readCache(path: string | undefined): CacheFile {
  if (!path) return { format: 1, counts: {} };
  try {
    const c = JSON.parse(readTextFile(path)) as CacheFile;
    if (c.format === 1 && c.counts && typeof c.counts === "object") return c;
  } catch {
    // missing or unreadable: start empty
  }
  return { format: 1, counts: {} };
}

/**
 * The exact input size of a context's request, from the Messages API's count-tokens
 * endpoint (free, but a network call: only on an explicit request). Cached by a hash of
 * the model, system prompt and messages.
 */
export async function countWithAnthropic(body: AnthropicRequestBody, opts: AnthropicCountOptions): Promise<AnthropicCount> {
  if (!body.model) throw new Error("no model for count-tokens: the context has none; pass one");
  const key = createHash("sha256").update(JSON.stringify([body.model, body.system ?? null, body.messages])).digest("hex");
  const cache = readCache(opts.cachePath);
  const hit = cache.counts[key];
  if (typeof hit === "number") return { inputTokens: hit, model: body.model, cached: true };
  const { Anthropic } = loadAnthropicSdk();
  const client = new Anthropic({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 2, timeout: opts.timeoutMs ?? 60_000 });
  // Our blocks are plain JSON of the API's shapes; the SDK's unions are stricter than we need to spell out.
  const params = { model: body.model, messages: body.messages, ...(body.system ? { system: body.system } : {}) } as unknown as Parameters<typeof client.messages.countTokens>[0];
  const res = await client.messages.countTokens(params, { signal: opts.signal });
  if (opts.cachePath) {
    cache.counts[key] = res.input_tokens;
    try {
      mkdirSync(dirname(opts.cachePath), { recursive: true });
      writeNewFile(opts.cachePath, JSON.stringify(cache), { replace: true });
    } catch {
      // The cache only saves a request next time.
    }
  }
  return { inputTokens: res.input_tokens, model: body.model, cached: false };
}
