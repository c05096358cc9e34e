import type { HostToWebview, WebviewToHost } from "../src/protocol";
import type { VsCodeApi } from "./vscode-api";

/** A VS Code API stand-in over an exported page's host: replies arrive as the host's messages do, as window message events. */
export function staticApi(make: (send: (m: HostToWebview) => void) => { receive(m: WebviewToHost): void }): VsCodeApi {
  let state: unknown;
  const send = (m: HostToWebview) => window.dispatchEvent(new MessageEvent("message", { data: m }));
  const host = make(send);
  return {
    // Answered after the caller's turn, as a real host's reply would be.
    postMessage: (m) => void Promise.resolve().then(() => host.receive(m)),
    getState: () => state,
    setState: (s) => {
      state = s;
    },
  };
}
