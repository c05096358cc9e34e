/** One cell's outcome as the report lists it. */
export interface CellResult {
  file: string;
  command: string;
  ms: number;
  code: number | null;
  maxRssKiB?: number;
  problems: string[];
  /** Not started: the matrix's wall budget was spent first. */
  notRun?: boolean;
}

export interface MatrixCounts {
  files: number;
  commands: number;
  /** Sessions in a database (OpenCode's), each under a subset of the commands. */
  databases: number;
  databaseCommands: number;
  argumentFiles: number;
  argumentCommands: number;
}

/** The line the test asserts on. */
export function summaryLine(c: MatrixCounts, results: readonly CellResult[]): string {
  const failed = results.filter((r) => r.problems.length).length;
  const total = c.files * c.commands + c.databases * c.databaseCommands + c.argumentFiles * c.argumentCommands;
  return `hostile matrix: ${c.files} files x ${c.commands} commands + ${c.databases} databases x ${c.databaseCommands} commands + ${c.argumentFiles} files x ${c.argumentCommands} hostile arguments = ${total} cells, ${failed} failed`;
}

const mib = (kib: number | undefined) => (kib === undefined ? "?" : `${Math.round(kib / 1024)} MiB`);
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** The report: the summary, failures by cell, failures by cause, the 10 slowest cells, the peak RSS cell. */
export function matrixReport(c: MatrixCounts, results: readonly CellResult[], wallMs: number): string {
  const out = [summaryLine(c, results), `wall time ${secs(wallMs)}; exit codes: ${codeCounts(results)}`];
  const failed = results.filter((r) => r.problems.length);
  if (failed.length) {
    out.push("", "failed cells (file | command | reasons):");
    for (const r of failed) out.push(`  ${r.file} | ${r.command} | ${r.problems.join("; ")}`);
    out.push("", "failures by reason:");
    const byReason = new Map<string, number>();
    for (const r of failed) for (const p of r.problems) byReason.set(reasonKind(p), (byReason.get(reasonKind(p)) ?? 0) + 1);
    for (const [k, n] of [...byReason].sort((a, b) => b[1] - a[1])) out.push(`  ${n} x ${k}`);
  }
  const ran = results.filter((r) => !r.notRun);
  out.push("", "10 slowest cells:");
  for (const r of [...ran].sort((a, b) => b.ms - a.ms).slice(0, 10)) out.push(`  ${secs(r.ms)}  ${r.file} | ${r.command} (exit ${r.code}, ${mib(r.maxRssKiB)})`);
  const peak = ran.filter((r) => r.maxRssKiB !== undefined).sort((a, b) => (b.maxRssKiB ?? 0) - (a.maxRssKiB ?? 0))[0];
  if (peak) out.push("", `peak RSS: ${mib(peak.maxRssKiB)} in ${peak.file} | ${peak.command} (${secs(peak.ms)})`);
  return `${out.join("\n")}\n`;
}

function codeCounts(results: readonly CellResult[]): string {
  const m = new Map<string, number>();
  for (const r of results) {
    const k = r.notRun ? "not run" : String(r.code);
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return [...m].map(([k, n]) => `${k}: ${n}`).join(", ");
}

/** A failure reason without its particulars, to count causes. */
function reasonKind(p: string): string {
  return p.replace(/: .*$/, "").replace(/\d+(\.\d+)?/g, "N");
}
