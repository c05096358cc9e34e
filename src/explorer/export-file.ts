// An export of a session in one of its formats (HTML page, Markdown, JSON), streamed: to a
// sink as it is made, or to a file whole or not at all (a temp file renamed over it). VS
// Code's Export Session writes through it: a first pass into no sink gives the redaction
// report the user confirms before the save dialog, the second writes the file; neither
// holds the export whole, so a 100 MB session's export runs in about twice its size.
// Here, not in core, as the HTML page is made by the explorer's page model.

import { writeSessionJson } from "../core/export/json";
import { writeSessionMarkdown } from "../core/export/markdown";
import type { RedactionReport, Redactor } from "../core/export/redactor";
import type { SessionReader } from "../core/session/session-reader";
import { writeNewFileInPieces } from "../core/store/atomic-file";
import { writeHtmlExport } from "./html-export";

export type ExportFormatId = "html" | "md" | "json";

export interface ExportFileOptions {
  /** A branch by its leaf; undefined: the whole tree. */
  leafId?: string;
  redactor: Redactor;
  /** Whether the redactor scans (said in the JSON export's header). */
  redacted: boolean;
}

/** Receives the export piece by piece. */
export type ExportSink = (piece: string) => void | Promise<void>;

/** Writes the export to `sink` as it is made: the whole tree, or the branch root..leafId. */
export async function writeExport(session: SessionReader, format: ExportFormatId, opts: ExportFileOptions, sink: ExportSink): Promise<void> {
  const leaf = opts.leafId === undefined ? undefined : session.requireIndex(opts.leafId);
  if (format === "html") return writeHtmlExport(session, opts.leafId === undefined ? { all: true, redactor: opts.redactor } : { leafId: opts.leafId, redactor: opts.redactor }, sink);
  const scope = leaf === undefined ? { all: true } : { leaf };
  if (format === "md") return writeSessionMarkdown(session, opts.redactor, scope, sink);
  return writeSessionJson(session, opts.redactor, { ...scope, redacted: opts.redacted }, sink);
}

/** The redaction report of an export, made without keeping any of it (the first pass). */
export async function exportReport(session: SessionReader, format: ExportFormatId, opts: ExportFileOptions): Promise<RedactionReport> {
  await writeExport(session, format, opts, () => undefined);
  return opts.redactor.report();
}

/** The export written to `target` as it is made, whole or not at all (NewFileError says why). Returns its bytes. */
export function writeExportFile(session: SessionReader, format: ExportFormatId, opts: ExportFileOptions, target: string): Promise<number> {
  return writeNewFileInPieces(target, (put) => writeExport(session, format, opts, put), { replace: true });
}
