import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/**
 * A fake Anthropic Messages API on 127.0.0.1 for tests that drive the real SDK.
 * Each POST /v1/messages takes the next scripted reply (or asks a function), answers
 * as JSON or as server-sent events depending on the request's `stream` flag, and
 * records the request. Reusable by any test tier: start(), use .url as baseURL, close().
 */
export type FakeReply =
  /** A normal answer; streamed in `chunks` text deltas when the request streams. */
  | { kind: "message"; text: string; chunks?: number; chunkDelayMs?: number; stopReason?: string; usage?: { input_tokens: number; output_tokens: number } }
  /** An API error with Anthropic's error body. */
  | { kind: "error"; status: number; type?: string; message?: string; headers?: Record<string, string> }
  /** Accepts the request and never answers. */
  | { kind: "hang" }
  /** 200 whose body is not valid JSON (or an SSE event with broken JSON when streaming). */
  | { kind: "malformed"; body?: string }
  /** Streams part of the text, then destroys the socket. */
  | { kind: "reset-mid-stream"; text: string }
  /** Streams part of the text, then goes silent with the connection open. */
  | { kind: "stall-mid-stream"; text: string }
  /** Starts a stream, then sends one small text delta every `everyMs` and never finishes. */
  | { kind: "trickle"; everyMs: number }
  /** 200 with a body that is neither an event stream nor JSON (bytes, no events). */
  | { kind: "garbage"; body?: string }
  /** A complete answer without any text block (an empty summary). */
  | { kind: "no-text" };

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: {
    model?: string;
    max_tokens?: number;
    stream?: boolean;
    system?: unknown;
    messages?: Array<{ role: string; content: unknown }>;
  };
  /** The text of the first user message (our prompts are one text message). */
  prompt: string;
}

export type Script = FakeReply[] | ((req: RecordedRequest, n: number) => FakeReply);

export interface FakeOptions {
  /** Answer for POST /v1/messages/count_tokens (default: chars/4 of the messages). */
  countTokens?: (body: RecordedRequest["body"]) => number;
  /** When set, requests with another key get a 401. */
  apiKey?: string;
  /** Reply once a list script is used up. */
  fallback?: FakeReply;
}

const DEFAULT_REPLY: FakeReply = { kind: "message", text: "## Goal\nfake summary" };

export class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly queue: FakeReply[];

  private constructor(
    private readonly server: Server,
    private readonly script: Script,
    private readonly opts: FakeOptions,
  ) {
    this.queue = Array.isArray(script) ? [...script] : [];
  }

  static async start(script: Script = [], opts: FakeOptions = {}): Promise<FakeAnthropic> {
    let fake: FakeAnthropic | undefined;
    const server = createServer((req, res) => void fake?.handle(req, res));
    fake = new FakeAnthropic(server, script, opts);
    server.on("connection", (s) => {
      fake?.sockets.add(s);
      s.on("close", () => fake?.sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return fake;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Adds replies to a list script. */
  push(...replies: FakeReply[]): void {
    this.queue.push(...replies);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private next(req: RecordedRequest): FakeReply {
    if (typeof this.script === "function") return this.script(req, this.requests.length - 1);
    return this.queue.shift() ?? this.opts.fallback ?? DEFAULT_REPLY;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: RecordedRequest["body"] = {};
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      /* recorded as empty */
    }
    const first = body.messages?.[0]?.content;
    const prompt = typeof first === "string" ? first : Array.isArray(first) ? first.map((b: { text?: string }) => b.text ?? "").join("") : "";
    const rec: RecordedRequest = { path: req.url ?? "", headers: req.headers, body, prompt };
    this.requests.push(rec);
    const key = req.headers["x-api-key"] ?? String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (this.opts.apiKey !== undefined && key !== this.opts.apiKey) {
      return sendError(res, { kind: "error", status: 401, type: "authentication_error", message: "invalid x-api-key" });
    }
    if (req.method === "POST" && rec.path.startsWith("/v1/messages/count_tokens")) {
      const n = this.opts.countTokens ? this.opts.countTokens(body) : Math.ceil(JSON.stringify(body.messages ?? []).length / 4);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ input_tokens: n }));
      return;
    }
    if (req.method !== "POST" || !rec.path.startsWith("/v1/messages")) {
      return sendError(res, { kind: "error", status: 404, type: "not_found_error", message: `no route ${req.method} ${rec.path}` });
    }
    const reply = this.next(rec);
    const stream = body.stream === true;
    switch (reply.kind) {
      case "error":
        return sendError(res, reply);
      case "hang":
        return;
      case "malformed":
        if (stream) {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.end(`event: message_start\ndata: ${reply.body ?? "{not json"}\n\n`);
        } else {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(reply.body ?? '{"id": "msg_1", "content": [');
        }
        return;
      case "message":
        if (!stream) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(messageJson(body.model, reply.text, reply.stopReason, reply.usage)));
          return;
        }
        return streamText(res, body.model, reply.text, reply);
      case "garbage":
        res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
        res.end(reply.body ?? "\u0000\u0001 this is not an event stream <html>oops</html>\n\n:::\n\n");
        return;
      case "no-text": {
        const empty = { ...messageJson(body.model, "", "end_turn"), content: [] };
        if (!stream) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify(empty));
          return;
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(sse("message_start", { type: "message_start", message: { ...empty, stop_reason: null } }));
        res.write(sse("message_delta", { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 0 } }));
        res.end(sse("message_stop", { type: "message_stop" }));
        return;
      }
      case "trickle": {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(sse("message_start", { type: "message_start", message: { ...messageJson(body.model, "", null), content: [] } }));
        res.write(sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }));
        const t = setInterval(() => {
          if (res.destroyed) return clearInterval(t);
          res.write(sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "." } }));
        }, reply.everyMs);
        res.on("close", () => clearInterval(t));
        return;
      }
      case "reset-mid-stream":
      case "stall-mid-stream": {
        res.writeHead(200, { "content-type": "text/event-stream" });
        const half = reply.text.slice(0, Math.ceil(reply.text.length / 2));
        res.write(sse("message_start", { type: "message_start", message: { ...messageJson(body.model, "", null), content: [] } }));
        res.write(sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }));
        res.write(sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: half } }));
        if (reply.kind === "reset-mid-stream") setTimeout(() => req.socket.destroy(), 20);
        return;
      }
    }
  }
}

function sendError(res: ServerResponse, e: Extract<FakeReply, { kind: "error" }>): void {
  res.writeHead(e.status, { "content-type": "application/json", ...(e.headers ?? {}) });
  res.end(JSON.stringify({ type: "error", error: { type: e.type ?? "api_error", message: e.message ?? `fake error ${e.status}` } }));
}

function messageJson(model: string | undefined, text: string, stopReason?: string | null, usage?: { input_tokens: number; output_tokens: number }) {
  return {
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model: model ?? "fake",
    content: [{ type: "text", text }],
    stop_reason: stopReason === undefined ? "end_turn" : stopReason,
    stop_sequence: null,
    usage: usage ?? { input_tokens: 100, output_tokens: Math.ceil(text.length / 4) },
  };
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

async function streamText(res: ServerResponse, model: string | undefined, text: string, r: Extract<FakeReply, { kind: "message" }>): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const usage = r.usage ?? { input_tokens: 100, output_tokens: Math.ceil(text.length / 4) };
  res.write(sse("message_start", { type: "message_start", message: { ...messageJson(model, "", null, { input_tokens: usage.input_tokens, output_tokens: 1 }), content: [] } }));
  res.write(sse("content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }));
  const n = Math.max(1, r.chunks ?? 3);
  const size = Math.ceil(text.length / n);
  for (let i = 0; i < text.length; i += size) {
    if (res.destroyed) return;
    res.write(sse("content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(i, i + size) } }));
    if (r.chunkDelayMs) await new Promise((resolve) => setTimeout(resolve, r.chunkDelayMs));
  }
  if (res.destroyed) return;
  res.write(sse("content_block_stop", { type: "content_block_stop", index: 0 }));
  res.write(sse("message_delta", { type: "message_delta", delta: { stop_reason: r.stopReason ?? "end_turn", stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }));
  res.write(sse("message_stop", { type: "message_stop" }));
  res.end();
}
