import { basename, dirname, join } from "node:path";
import * as vscode from "vscode";
import { exportReport, writeExportFile } from "../explorer/export-file";
import { createRedactor } from "../core/export/redact/create-redactor";
import { currentUser } from "../core/export/redact/current-user";
import { passThroughRedactor, type RedactionReport, type Redactor } from "../core/export/redactor";
import type { SessionReader } from "../core/session/session-reader";
import { clipText, visibleText } from "../core/util/visible-text";
import { sessionTitle } from "../core/util/session-title";
import { guarded } from "./commands";
import { type CommandDeps, registrar, resolveFile, type Target } from "./commands/command-kit";
import { leafItems } from "./context-diff";

/*
 * Export Session...: the whole tree or one branch, the format (HTML, Markdown, JSON),
 * redaction on by default; the redaction report is shown before anything is written, then a
 * save dialog, then the result opens (HTML in the browser, Markdown and JSON in an editor).
 */

export interface RedactorOptions {
  /** Replace secrets (the default); false: nothing is replaced and the report is empty. */
  redact: boolean;
}

/** The one place an export's redactor is made: the secret scan, the home folder and user name included. */
export function makeRedactor(opts: RedactorOptions): Redactor {
  return opts.redact ? createRedactor(currentUser(process.env)) : passThroughRedactor();
}

interface ExportFormatSpec {
  label: string;
  extension: string;
  filterName: string;
  /** How the written file opens: the browser, or an editor. */
  opens: "external" | "editor";
}

const FORMATS = {
  html: { label: "$(globe) HTML page", extension: "html", filterName: "HTML", opens: "external" },
  md: { label: "$(markdown) Markdown", extension: "md", filterName: "Markdown", opens: "editor" },
  json: { label: "$(json) JSON", extension: "json", filterName: "JSON", opens: "editor" },
} satisfies Record<string, ExportFormatSpec>;

export type ExportFormat = keyof typeof FORMATS;

/** What code (tests, other extensions) may decide instead of the dialogs. */
export interface ExportArgs {
  /** A branch's leaf; null: the whole tree. Undefined: asked. */
  leafId?: string | null;
  format?: ExportFormat;
  redact?: boolean;
  /** Where to write; undefined: the save dialog. */
  out?: string;
  /** false: no report dialog (the report is still returned). */
  confirm?: boolean;
}

export interface ExportOutcome {
  file: string;
  format: ExportFormat;
  bytes: number;
  report: RedactionReport;
  /** Whether the browser or editor was asked to open it and said yes. */
  opened: boolean;
}

type ScopeItem = vscode.QuickPickItem & { leafId: string | null };

async function pickScope(s: SessionReader): Promise<string | null | undefined> {
  const whole: ScopeItem = { label: "$(list-tree) The whole tree", description: `${s.metas.length} entries, every branch`, leafId: null };
  const branches = leafItems(s).map((l): ScopeItem => ({ label: `$(git-branch) ${l.label}`, description: l.description, leafId: l.id ?? null }));
  const picked = await vscode.window.showQuickPick([whole, ...branches], { title: "Export Session: the whole tree or one branch (pick its leaf)", matchOnDescription: true });
  return picked?.leafId;
}

async function pickFormat(): Promise<ExportFormat | undefined> {
  const ids = Object.keys(FORMATS) as ExportFormat[];
  if (ids.length === 1) return ids[0];
  const picked = await vscode.window.showQuickPick(ids.map((id) => ({ label: FORMATS[id].label, id })), { title: "Export Session: format" });
  return picked?.id;
}

async function pickRedaction(): Promise<boolean | undefined> {
  const items = [
    { label: "$(shield) Redact secrets", description: "API keys, tokens, private keys, passwords replaced by a marker naming the rule (recommended)", redact: true },
    { label: "$(unlock) Export as it is", description: "nothing replaced", redact: false },
  ];
  return (await vscode.window.showQuickPick(items, { title: "Export Session: redaction" }))?.redact;
}

/** The report as the dialog shows it: each rule with its count and how many entries it hit. */
export function reportLines(report: RedactionReport, redact: boolean): string[] {
  if (!redact) return ["Redaction is off: nothing was replaced."];
  if (!report.total) return ["No secret found: nothing was replaced."];
  return [`${report.total} replaced:`, ...report.rules.map((r) => `${r.description} (${r.rule}): ${r.count} in ${r.entryIds.length} ${r.entryIds.length === 1 ? "entry" : "entries"}`)];
}

/** Runs the export; undefined when a dialog was dismissed (nothing written). */
export async function exportSession(deps: CommandDeps, file: string, args: ExportArgs = {}): Promise<ExportOutcome | undefined> {
  const session = await deps.session(file);
  const leafId = args.leafId !== undefined ? args.leafId : await pickScope(session);
  if (leafId === undefined) return undefined;
  const format = args.format ?? (await pickFormat());
  if (!format) return undefined;
  const redact = args.redact ?? (await pickRedaction());
  if (redact === undefined) return undefined;
  const spec = FORMATS[format];
  // Two passes, neither holding the export whole (a 100 MB session's): the first only counts what
  // is replaced, for the report shown before the save dialog; the second writes the file as it is made.
  const scope = leafId === null ? {} : { leafId };
  const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Exporting ${basename(file)}: looking for secrets…` }, () =>
    exportReport(session, format, { ...scope, redactor: makeRedactor({ redact }), redacted: redact }),
  );
  const title = visibleText(clipText(deps.view.titleOf(file) ?? sessionTitle(undefined, file), 80));
  if (args.confirm !== false) {
    const what = `${leafId === null ? "the whole tree" : "one branch"} as ${spec.filterName}`;
    const go = await vscode.window.showInformationMessage(`Export "${title}": ${what}?`, { modal: true, detail: reportLines(report, redact).join("\n") }, "Export");
    if (go !== "Export") return undefined;
  }
  let out = args.out;
  if (out === undefined) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? dirname(file);
    const name = `${basename(file).replace(/\.[^.]*$/, "")}${leafId === null ? "" : "-branch"}.${spec.extension}`;
    out = (await vscode.window.showSaveDialog({ title: "Export Session", defaultUri: vscode.Uri.file(join(folder, name)), filters: { [spec.filterName]: [spec.extension] } }))?.fsPath;
    if (!out) return undefined;
  }
  const target = out;
  // Whole or not at all: a failed write leaves no file (the error is shown by guarded()).
  const bytes = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Exporting ${basename(file)}…` }, () =>
    writeExportFile(session, format, { ...scope, redactor: makeRedactor({ redact }), redacted: redact }, target),
  );
  deps.log.info(`exported ${file} to ${out} (${format}, ${bytes} bytes, redaction ${redact ? `on: ${report.total} replaced` : "off"})`);
  const uri = vscode.Uri.file(out);
  let opened: boolean;
  if (spec.opens === "external") opened = await vscode.env.openExternal(uri);
  else {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    opened = true;
  }
  return { file: out, format, bytes, report, opened };
}

/** Export Session... from the Sessions view, the explorer's title bar and the palette. */
export function registerExportCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  reg("agentSessions.exportSession", guarded(deps, "Export Session", async (t?: Target, args?: ExportArgs) => {
    const file = await resolveFile(deps, t, "Export which session?");
    if (!file) return undefined;
    return exportSession(deps, file, args ?? {});
  }));
}
