/** A port closed at once: a message posted to it is dropped, and what it carried with it. */
let closed: import("node:worker_threads").MessagePort | undefined;

/**
 * Gives the memory behind an array back now, not at V8's next collection: transferred
 * to a closed port, its buffer is detached and its bytes freed on the spot. Adopting a
 * second thread's index copies each column in turn; freeing each as soon as it is copied
 * keeps the peak at one column more, not one half of the index more (a 100 MB Codex
 * rollout: 12 MB). Only for buffers nothing else uses; small ones (which may share Node's
 * pool with other Buffers) are left to the collector.
 */
export function releaseNow(view: ArrayBufferView): void {
  const buf = view.buffer;
  if (!(buf instanceof ArrayBuffer) || buf.byteLength <= Buffer.poolSize) return;
  if (!closed) {
    // Required here: node:worker_threads costs every CLI command ~1.5 ms to load, and only two-thread loads come here.
    const { MessageChannel } = require("node:worker_threads") as typeof import("node:worker_threads");
    const channel = new MessageChannel();
    channel.port2.close();
    closed = channel.port1;
    closed.close();
  }
  try {
    closed.postMessage(null, [buf]);
  } catch {
    // Not transferable (already detached, say): the collector frees it.
  }
}
