import { seconds } from "../core/compaction/budgets";
import type { LlmOptions, SummaryPart, SummaryProgress } from "../core/compaction/summarizer";
import { CliError, type CliIO } from "./cli-error";
import { safeText } from "./format";

/** `--timeout SECONDS`: the overall budget of the summary, retries and waits included. */
export const TIMEOUT_USAGE = "[--timeout SECONDS]";

/** A positive number of seconds (fractions allowed) as ms, or undefined when the flag is absent. */
export function timeoutFlag(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const s = Number(value.trim());
  if (!value.trim() || !Number.isFinite(s) || s <= 0) throw new CliError(`--timeout expects a positive number of seconds, got "${value}"`);
  return Math.round(s * 1000);
}

/** The LLM options of `ase compact` and `ase branch` from the environment and flags. */
export function cliLlmOptions(io: CliIO, apiKey: string, model: string | undefined, totalMs: number | undefined): LlmOptions {
  const hooks = io.llm ?? {};
  return {
    ...hooks,
    apiKey,
    baseURL: io.env.ANTHROPIC_BASE_URL || undefined,
    model,
    budgets: { ...hooks.budgets, ...(totalMs === undefined ? {} : { totalMs }) },
  };
}

/** A line about the wait is printed each time this much more has passed with no answer. */
export const WAIT_NOTE_EVERY_MS = 10_000;

const partName = (p: SummaryPart) => (p === "turn-prefix" ? "turn prefix summary" : p === "branch" ? "branch summary" : "history summary");

/**
 * Progress as stderr lines that all start `ase <command>: note:`, so the one error line
 * (without "note:") stays easy to find. SDK notices (a deprecated model) print once.
 */
export function summaryProgressPrinter(io: CliIO, command: string): (p: SummaryProgress | { type: "fallback"; reason: string } | { type: "writing" }) => void {
  const said = new Set<string>();
  let waitNotes = 0;
  const note = (text: string) => io.err(`ase ${command}: note: ${text}\n`);
  return (p) => {
    if (p.type === "retry") {
      note(`${partName(p.part)}: ${safeText(p.reason)}; retry ${p.attempt + 1} in ${seconds(p.delayMs)} (waited ${seconds(p.waitedMs)} of ${seconds(p.budgetMs)})`);
    } else if (p.type === "wait") {
      const due = Math.floor(p.waitedMs / WAIT_NOTE_EVERY_MS);
      if (due <= waitNotes) return;
      waitNotes = due;
      note(`waiting for the ${partName(p.part)}: waited ${seconds(p.waitedMs)} of ${seconds(p.budgetMs)} (attempt ${p.attempt})`);
    } else if (p.type === "warning") {
      if (said.has(p.message)) return;
      said.add(p.message);
      note(safeText(p.message));
    } else if (p.type === "fallback") {
      note(`falling back to truncate: ${safeText(p.reason)}`);
    }
  };
}
