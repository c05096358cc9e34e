import type { HostToWebview, ReplyMessage, ReplyResults, RequestType, WebviewToHost } from "../src/protocol";
import type { VsCodeApi } from "./vscode-api";

/** A request message without its id: the client assigns one. */
export type RequestOf<T extends RequestType> = Omit<Extract<WebviewToHost, { type: T }>, "requestId">;

/** Messages the host pushes on its own (everything but replies). */
export type HostEvent = Exclude<HostToWebview, ReplyMessage>;

interface Pending {
  resolve(value: unknown): void;
  reject(reason: Error): void;
}

export class RpcDisposedError extends Error {
  constructor() {
    super("webview closed");
  }
}

/**
 * Request/reply over postMessage: each request gets an id, the host answers with one
 * `reply` carrying it. Pending requests are rejected on dispose so no caller hangs.
 */
export class RpcClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private disposed = false;
  private readonly onMessage = (e: MessageEvent): void => this.receive(e.data);

  constructor(
    private readonly api: Pick<VsCodeApi, "postMessage">,
    private readonly onEvent: (event: HostEvent) => void,
    private readonly target: Pick<Window, "addEventListener" | "removeEventListener"> = window,
  ) {
    target.addEventListener("message", this.onMessage);
  }

  request<T extends RequestType>(msg: RequestOf<T>): Promise<ReplyResults[T]> {
    if (this.disposed) return Promise.reject(new RpcDisposedError());
    const requestId = this.nextId++;
    return new Promise<ReplyResults[T]>((resolve, reject) => {
      this.pending.set(requestId, { resolve: resolve as (v: unknown) => void, reject });
      this.api.postMessage({ ...msg, requestId } as WebviewToHost);
    });
  }

  /** Fire-and-forget intents (ready, action, openFile). */
  post(msg: Extract<WebviewToHost, { type: "ready" | "action" | "openFile" | "openSubagent" | "retryLoad" }>): void {
    if (!this.disposed) this.api.postMessage(msg);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  dispose(): void {
    this.disposed = true;
    this.target.removeEventListener("message", this.onMessage);
    const err = new RpcDisposedError();
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  private receive(data: unknown): void {
    if (!isHostMessage(data)) return;
    if (data.type === "reply") {
      const p = this.pending.get(data.requestId);
      if (!p) return;
      this.pending.delete(data.requestId);
      if (data.ok) p.resolve(data.result);
      else p.reject(new Error(data.error ?? "request failed"));
      return;
    }
    this.onEvent(data);
  }
}

/** Every message type the host sends: a record, so a type added to the protocol must be added here. */
const HOST_TYPES: Record<HostToWebview["type"], true> = { init: true, sessionChanged: true, bars: true, cost: true, loading: true, loadFailed: true, notice: true, showEntry: true, reply: true };

function isHostMessage(m: unknown): m is HostToWebview {
  if (!m || typeof m !== "object") return false;
  const o = m as { type?: unknown; requestId?: unknown };
  if (typeof o.type !== "string" || !Object.hasOwn(HOST_TYPES, o.type)) return false;
  if (o.type === "showEntry") return typeof (m as { id?: unknown }).id === "string";
  return o.type !== "reply" || typeof o.requestId === "number";
}
