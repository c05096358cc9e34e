// The HTML export of a session: the page writer of src/core/export (html.ts) fed by the
// explorer's host side (page-model.ts), so the page shows what the panel shows. Here, not
// in core, as core never imports the explorer.

import { type HtmlSink, writeHtmlPage } from "../core/export/html";
import type { SessionReader } from "../core/session/session-reader";
import { writeNewFileInPieces } from "../core/store/atomic-file";
import { PageModel, type PageModelOptions } from "./page-model";

export type HtmlExportOptions = PageModelOptions;

/**
 * Writes the page to `sink` in pieces: the head, the index (tree, header, branches), the
 * script, the details a chunk at a time, each piece dropped once the sink has it.
 */
export async function writeHtmlExport(session: SessionReader, opts: HtmlExportOptions, sink: HtmlSink): Promise<void> {
  const trim = opts.heapTrim;
  // The index goes out as thousands of pieces of JSON, each garbage once written: the heap trimmed between them.
  await writeHtmlPage(new PageModel(session, opts), trim ? (chunk) => (trim.maybe(), sink(chunk)) : sink);
}

/** The whole page as one string (a session of a few MB; writeHtmlExportFile streams a large one). */
export async function renderHtmlExport(session: SessionReader, opts: HtmlExportOptions): Promise<string> {
  const parts: string[] = [];
  await writeHtmlExport(session, opts, (c) => void parts.push(c));
  return parts.join("");
}

/**
 * The page written to `target` as it is made, whole or not at all (a temp file renamed
 * over it; on any failure no file is left). `beforePlace` runs when the page is complete,
 * before it is put in place (the CLI prints the redaction report then). Returns its bytes.
 */
export async function writeHtmlExportFile(session: SessionReader, opts: HtmlExportOptions, target: string, beforePlace?: () => void): Promise<number> {
  return writeNewFileInPieces(
    target,
    async (put) => {
      await writeHtmlExport(session, opts, put);
      beforePlace?.();
    },
    { replace: true },
  );
}
