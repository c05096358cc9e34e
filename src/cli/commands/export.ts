import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { createRedactor } from "../../core/export/redact/create-redactor";
import { currentUser } from "../../core/export/redact/current-user";
import { writeHtmlExport, writeHtmlExportFile } from "../../explorer/html-export";
import { writeSessionJson } from "../../core/export/json";
import { writeSessionMarkdown } from "../../core/export/markdown";
import { passThroughRedactor, type RedactionReport, type Redactor } from "../../core/export/redactor";
import { HeapTrim } from "../../core/util/heap-trim";
import { NewFileError, writeNewFileInPieces } from "../../core/store/atomic-file";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";
import { safeText } from "../format";
import { loadSession, reportProblems, requireEntry } from "../load";

const usage = "ase export <file> [--leaf ID | --all] [--format html|md|json] [--no-redact] [--keep-home] [--drop-images] [--json] [-o OUT]";

const FORMATS = ["html", "md", "json"] as const;
type ExportFormat = (typeof FORMATS)[number];

/** The format asked for, else the one -o's extension names, else Markdown. */
function exportFormat(given: string | undefined, out: string | undefined): ExportFormat {
  if (given !== undefined) {
    if (!(FORMATS as readonly string[]).includes(given)) throw new CliError(`--format must be html, md or json, got "${given}"`);
    return given as ExportFormat;
  }
  const ext = /\.([a-z]+)$/i.exec(out ?? "")?.[1]?.toLowerCase();
  return ext === "html" || ext === "htm" ? "html" : ext === "json" ? "json" : "md";
}

/** The report as lines for stderr: each rule, its count and the entries it hit. */
function reportText(report: RedactionReport, redacted: boolean): string {
  if (!redacted) return "redaction: off (--no-redact): nothing was replaced\n";
  if (!report.total) return "redaction: nothing found to redact\n";
  const lines = [`redaction: ${report.total} replacement(s) by ${report.rules.length} rule(s):`];
  for (const r of report.rules) {
    const ids = r.entryIds.slice(0, 5).join(", ") + (r.entryIds.length > 5 ? `, ... (${r.entryIds.length} entries)` : "");
    lines.push(`  ${r.rule}  ${r.count}  ${r.description}${ids ? `  in ${ids}` : ""}`);
  }
  return `${lines.map(safeText).join("\n")}\n`;
}

/** Refuses to write over the session read, or over any existing session file (.jsonl). */
function checkTarget(out: string, sessionPath: string, cwd: string): string {
  const target = resolve(cwd, out);
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : p);
  if (real(target) === real(resolve(sessionPath))) throw new CliError(`-o ${out}: that is the session being exported; choose another file`);
  if (existsSync(target) && /\.jsonl$/i.test(target)) throw new CliError(`-o ${out}: an existing .jsonl file (a session?) is never overwritten; choose another file`);
  return target;
}

async function run(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseFlags(
    args,
    {
      leaf: { type: "string" },
      all: { type: "boolean" },
      format: { type: "string" },
      "no-redact": { type: "boolean" },
      "keep-home": { type: "boolean" },
      "drop-images": { type: "boolean" },
      json: { type: "boolean" },
      out: { type: "string", short: "o" },
    },
    usage,
  );
  if (values.all && values.leaf !== undefined) throw new CliError("--leaf and --all exclude each other: one branch, or the whole tree");
  if (values.json && values.out === undefined) throw new CliError("--json prints the redaction report on stdout: give -o OUT for the export itself");
  if (values["no-redact"] && (values["keep-home"] || values["drop-images"])) throw new CliError("--keep-home and --drop-images shape the redaction: they do not go with --no-redact");
  const format = exportFormat(values.format, values.out);
  const session = await loadSession(onePositional(positionals, "session file", usage));
  const target = values.out !== undefined ? checkTarget(values.out, session.path, io.cwd) : undefined;
  const leaf = requireEntry(session, values.leaf, "leaf");
  const redacted = !values["no-redact"];
  const redactor: Redactor = redacted ? createRedactor({ ...(values["keep-home"] ? {} : currentUser(io.env)), dropImages: values["drop-images"] }) : passThroughRedactor();
  reportProblems(session, io.err);
  // The report comes first: a user sees what was replaced before the file exists.
  const tell = () => {
    const report = redactor.report();
    if (values.json) io.out(`${JSON.stringify({ file: session.path, format, output: target, redacted, ...report }, null, 2)}\n`);
    else io.err(reportText(report, redacted));
  };
  const wrote = (bytes: number) => {
    if (!values.json) io.err(`wrote ${safeText(target as string)} (${format}, ${bytes} bytes)\n`);
  };
  // A process of its own: the heap trimmed as the export is made (PageModelOptions.heapTrim).
  const heapTrim = new HeapTrim();
  if (format === "html") {
    // The page: the whole tree with --all, else the branch the other formats write. Written
    // as it is made (a 100 MB session's page is never one string), the report before it is put in place.
    const opts = values.all ? { all: true, redactor, heapTrim } : { leafId: session.metas[leaf].id, redactor, heapTrim };
    if (target === undefined) {
      // To stdout as it is made; the report (stderr) then follows it.
      await writeHtmlExport(session, opts, async (piece) => {
        if (io.out(piece) === false) await io.drained?.();
      });
      tell();
      return;
    }
    wrote(await atomically(() => writeHtmlExportFile(session, opts, target, tell)));
    return;
  }
  // JSON and Markdown are written as they are made too: an entry at a time, the report before the file is put in place.
  const opts = { leaf, all: values.all, redacted };
  const write = (sink: (piece: string) => void | Promise<void>) =>
    format === "json" ? writeSessionJson(session, redactor, opts, sink) : writeSessionMarkdown(session, redactor, { ...opts, heapTrim }, sink);
  if (target === undefined) {
    await write(async (piece) => {
      if (io.out(piece) === false) await io.drained?.();
    });
    tell();
    return;
  }
  wrote(await atomically(() => writeNewFileInPieces(target, async (put) => (await write(put), tell()), { replace: true })));
}

/** A failed write as the one-line error of the CLI (nothing was left at the target). */
async function atomically<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof NewFileError) throw new CliError(err.message);
    throw err;
  }
}

export const exportCommand: CliCommand = {
  name: "export",
  usage,
  summary: "a branch (or --all, the whole tree) as Markdown or JSON (html: the self-contained page), secrets redacted unless --no-redact: the report (rule, count, entries) on stderr, or stdout with --json, before anything is written; -o writes atomically, never over a session",
  run,
};
