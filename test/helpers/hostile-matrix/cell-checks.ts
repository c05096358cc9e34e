import { basename } from "node:path";
import type { CellRun } from "./spawn-cell";

export interface CellBudgets {
  seconds: number;
  rssMiB: number;
}

/** The lines of stderr a clean CLI never prints: a stack frame, node's own error heads, V8's fatal ones. */
const STACK_FRAME = /^\s+at .*(?:\(.*:\d+:\d+\)|:\d+:\d+)$/m;
const NODE_ERROR = /^\s*(?:[A-Z]\w*)?Error(?: \[\w+\])?: |node:internal|^Uncaught /m;
const FATAL = /Maximum call stack|FATAL ERROR|heap out of memory|Aborted \(core dumped\)/;

/**
 * Why a cell failed (empty when it passed): exit code 0 or 2 within the budgets; on 2 one
 * line of stderr naming the file; never a stack trace or node's own error; never the decoy.
 * `names` are the strings an error may name the input by (file, its folder, an argument
 * file; for a bad argument, the argument itself: a `--prices` device, "the pattern").
 */
export function cellProblems(run: CellRun, budgets: CellBudgets, names: readonly string[]): string[] {
  const problems: string[] = [];
  const firstErr = run.stderr.trim().split("\n")[0]?.slice(0, 160) ?? "";
  if (run.timedOut) problems.push(`time budget ${budgets.seconds} s spent (killed)`);
  else if (run.signal) problems.push(`killed by ${run.signal}${firstErr ? `: ${firstErr}` : ""}`);
  else if (run.code !== 0 && run.code !== 2) problems.push(`exit code ${run.code}: ${firstErr}`);
  if (FATAL.test(run.stderr)) problems.push(`fatal: ${FATAL.exec(run.stderr)?.[0]}`);
  if (STACK_FRAME.test(run.stderr)) problems.push("stack trace on stderr");
  else if (NODE_ERROR.test(run.stderr)) problems.push(`node's own error on stderr: ${NODE_ERROR.exec(run.stderr)?.[0].trim()}`);
  if (run.code === 2 && !run.timedOut) {
    const lines = run.stderr.trimEnd().split("\n");
    if (lines.length !== 1) problems.push(`exit 2 with ${lines.length} lines of stderr`);
    const said = run.stderr;
    if (!names.some((n) => n && said.includes(n))) problems.push(`exit 2 without naming the file: ${firstErr}`);
  }
  if (run.markerSeen) problems.push("the decoy outside the temp dir reached the output");
  if (run.maxRssKiB !== undefined && run.maxRssKiB > budgets.rssMiB * 1024) problems.push(`peak RSS ${Math.round(run.maxRssKiB / 1024)} MiB > ${budgets.rssMiB} MiB`);
  return problems;
}

/** The strings by which an error may name a cell's input. */
export function namesOf(file: string, extra: readonly string[]): string[] {
  return [basename(file), ...extra];
}
