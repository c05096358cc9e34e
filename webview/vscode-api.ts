import type { WebviewToHost } from "../src/protocol";

/** The slice of VS Code's webview API we use (narrow, so tests can stub it). */
export interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** acquireVsCodeApi may be called only once per page. */
let api: VsCodeApi | undefined;
export function vscodeApi(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}
