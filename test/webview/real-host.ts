import { writeFileSync } from "node:fs";
import { renderHtmlExport } from "../../src/explorer/html-export";
import { passThroughRedactor } from "../../src/core/export/redactor";
import { createRedactor } from "../../src/core/export/redact/create-redactor";
import { openSession } from "../../src/core/formats/registry";
import { ExplorerController } from "../../src/explorer/controller";
import type { InitMessage, WebviewToHost } from "../../src/protocol";

/**
 * A host for the webview tests backed by the real core: the extension host's own
 * ExplorerController over a real session file of any format, so the rows, details, bars and files are
 * the ones the panel serves. It answers the protocol like fake-host.mjs's hosts do
 * (init(), answer(message), log). No file is openable: the tests run outside any workspace.
 */
export async function createRealHost(path: string) {
  const session = await openSession(path);
  const controller = new ExplorerController(session, { trusted: () => true, fileExists: () => false });
  return {
    log: [] as unknown[],
    session,
    controller,
    init(): InitMessage {
      return controller.init();
    },
    /** As the panel answers: the asynchronous path (details with sub-agent figures, the timeline in slices). */
    answer(m: WebviewToHost): Promise<unknown> {
      if (!("requestId" in m)) throw new Error(`${m.type} is not a request`);
      return controller.answerAsync(m);
    },
  };
}

// The hostile session of the CLI tests, for the webview test that runs it through the real core.
export { HOSTILE, MARKS, MEGABYTE, RAW_HIDDEN, writeHostileSession } from "../helpers/hostile-session";

/** The exported HTML page of a session (src/explorer/html-export.ts), written to `out`, redacted if asked: its size in bytes. */
export async function exportHtmlPage(path: string, out: string, opts: { leafId?: string; redact?: boolean } = {}): Promise<number> {
  const { redact, ...rest } = opts;
  const html = await renderHtmlExport(await openSession(path), { ...rest, redactor: redact ? createRedactor({}) : passThroughRedactor() });
  writeFileSync(out, html);
  return Buffer.byteLength(html);
}
