import { compactSession } from "../../core/formats/pi/compaction/compact";
import { type CompactionPlan, NothingToCompactError, planCompaction } from "../../core/formats/pi/compaction/prepare";
import { type CompactionStrategy, STRATEGIES } from "../../core/formats/pi/compaction/settings";
import { PartialWriteError } from "../../core/store/append-line";
import { intFlag, onePositional, parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { humanTokens, safeText } from "../format";
import { Session } from "../../core/formats/pi/pi-session";
import { formatOf } from "../../core/formats/registry";
import { loadSession, piOnly, requireEntry } from "../load";
import { compactFormatCli } from "./compact-format";
import { cliLlmOptions, summaryProgressPrinter, TIMEOUT_USAGE, timeoutFlag } from "../summary-flags";

const usage =
  `ase compact <file> [--leaf ID] [--dry-run] [--strategy summarize|truncate|smart] [--instructions TEXT] [--model M] [--allow-fallback] [--keep-recent N] [--reserve N] ${TIMEOUT_USAGE}`;

/** What every front end shows before compacting: the dry run, in plain lines. */
export function describePlan(plan: CompactionPlan): string[] {
  const lines = [
    `strategy: ${plan.strategy}${plan.strategy === "truncate" ? " (no LLM)" : `, model ${safeText(plan.model)} (${plan.modelSource})`}`,
    `leaf: ${safeText(plan.leafId)}; tokens before: ${humanTokens(plan.tokensBefore)}`,
    `cut: first kept entry ${safeText(plan.firstKeptEntryId)} (${plan.cutAt}); keeps ${plan.keptMessages} message(s), ~${humanTokens(plan.keptTokens)} tokens (keepRecentTokens ${plan.settings.keepRecentTokens})`,
    `summarize: ${plan.toSummarize.length} message(s), ~${humanTokens(plan.summarizeTokens)} tokens${plan.previousSummary ? `, updating the summary of compaction ${safeText(String(plan.previousCompactionId))}` : ""}`,
  ];
  if (plan.isSplitTurn) lines.push(`split turn: starts at ${safeText(String(plan.turnStartEntryId))}; ${plan.turnPrefix.length} prefix message(s), ~${humanTokens(plan.turnPrefixTokens)} tokens, summarized separately`);
  if (plan.strategy !== "truncate") lines.push(`max summary tokens: ${plan.maxSummaryTokens}${plan.isSplitTurn ? `, turn prefix ${plan.maxTurnPrefixTokens}` : ""}`);
  if (plan.smart) {
    const counts = { "tool-call": 0, error: 0, long: 0 };
    for (const i of plan.smart.items) counts[i.reason]++;
    lines.push(
      `kept verbatim: ${plan.smart.items.length} item(s) (${counts["tool-call"]} tool calls, ${counts.error} errors, ${counts.long} long), ~${humanTokens(plan.smart.tokens)} of ${humanTokens(plan.smart.budget)} tokens${plan.smart.overBudget ? `; ${plan.smart.overBudget} more left to the summary` : ""}`,
    );
  }
  lines.push(`tokens after: ~${humanTokens(plan.tokensAfterEstimate)}${plan.strategy === "truncate" ? "" : " at most"}`);
  lines.push(`read files: ${plan.readFiles.length ? plan.readFiles.map(safeText).join(", ") : "(none)"}`);
  lines.push(`modified files: ${plan.modifiedFiles.length ? plan.modifiedFiles.map(safeText).join(", ") : "(none)"}`);
  for (const n of plan.notes) lines.push(`note: ${safeText(n)}`);
  return lines;
}

/**
 * Failures the user can act on, as one line that says what is on disk: "nothing
 * written" unless the error says otherwise (a torn append it could not undo).
 */
/** The error, naming the file when it does not yet (a script compacting many files must tell which one refused). */
function naming(path: string, err: CliError): CliError {
  return err.message.includes(path) ? err : new CliError(`${path}: ${err.message}`, err.exitCode);
}

export function nothingWritten(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof PartialWriteError) return new CliError(err.message);
  const msg = (err as Error).message.replace(/[;,]? ?nothing written$/, "");
  return new CliError(msg.startsWith("nothing written") ? msg : `nothing written: ${msg}`);
}

export const compactCommand: CliCommand = {
  name: "compact",
  usage,
  summary: "append a compaction at the leaf (pi; clawdcode: its own rule, summarize all but the last 20%) (summary via ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL); --dry-run shows the plan; --timeout caps the summary, retries included (default 300 s)",
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      {
        leaf: { type: "string" },
        "dry-run": { type: "boolean" },
        strategy: { type: "string" },
        instructions: { type: "string" },
        model: { type: "string" },
        "allow-fallback": { type: "boolean" },
        "keep-recent": { type: "string" },
        reserve: { type: "string" },
        timeout: { type: "string" },
      },
      usage,
    );
    const strategy = (values.strategy ?? "summarize") as CompactionStrategy;
    if (!STRATEGIES.includes(strategy)) throw new CliError(`--strategy must be ${STRATEGIES.join(", ")}; got "${values.strategy}"`);
    const totalMs = timeoutFlag(values.timeout);
    const settings = { keepRecentTokens: intFlag(values["keep-recent"], "keep-recent"), reserveTokens: intFlag(values.reserve, "reserve") };
    const loaded = await loadSession(onePositional(positionals, "session file", usage));
    if (!(loaded instanceof Session) && formatOf(loaded).writer?.compaction) {
      try {
        return await compactFormatCli(loaded, values, io, totalMs);
      } catch (err) {
        throw nothingWritten(err);
      }
    }
    const session = piOnly(loaded, "compacting", "compact");
    const leaf = requireEntry(session, values.leaf, "leaf");
    if (leaf < 0) throw new CliError(`${session.path}: the session has no entries; nothing written`);
    const leafId = session.metas[leaf].id;
    const planOpts = { leafId, strategy, settings, model: values.model };

    if (values["dry-run"]) {
      let plan: CompactionPlan;
      try {
        plan = planCompaction(session, planOpts);
      } catch (err) {
        throw naming(session.path, new CliError((err as Error).message));
      }
      io.out(`dry run for ${safeText(session.path)} (nothing written)\n`);
      for (const l of describePlan(plan)) io.out(`  ${l}\n`);
      if (session.version < 3) io.out(`  note: version ${session.version} file: compacting it would be refused; fork it first (ase fork)\n`);
      return;
    }
    const apiKey = io.env.ANTHROPIC_API_KEY;
    if (strategy !== "truncate" && !apiKey) {
      throw new CliError("nothing written: ANTHROPIC_API_KEY is not set (or use --strategy truncate, which needs no LLM)");
    }
    try {
      const out = await compactSession(session, {
        ...planOpts,
        customInstructions: values.instructions,
        allowFallback: values["allow-fallback"],
        llm: apiKey ? cliLlmOptions(io, apiKey, values.model, totalMs) : undefined,
        onProgress: summaryProgressPrinter(io, "compact"),
      });
      const p = out.plan;
      io.out(`compacted ${safeText(session.path)}\n`);
      io.out(`  entry: ${safeText(out.entry.id)} (compaction, parent ${safeText(p.leafId)}); strategy ${out.strategy}${out.fallbackReason ? " (fallback)" : ""}${out.strategy === "truncate" ? "" : `, model ${safeText(out.model ?? p.model)}`}\n`);
      io.out(`  tokens: ${humanTokens(out.tokensBefore)} -> ~${humanTokens(out.tokensAfter)}\n`);
      io.out(`  first kept entry: ${safeText(p.firstKeptEntryId)}; summarized ${p.toSummarize.length + p.turnPrefix.length} message(s)${p.isSplitTurn ? " (split turn)" : ""}\n`);
      io.out(`  read files: ${p.readFiles.length ? p.readFiles.map(safeText).join(", ") : "(none)"}\n`);
      io.out(`  modified files: ${p.modifiedFiles.length ? p.modifiedFiles.map(safeText).join(", ") : "(none)"}\n`);
    } catch (err) {
      // A refusal names the session; an API failure keeps its "nothing written: <why>" form.
      throw err instanceof NothingToCompactError ? naming(session.path, nothingWritten(err)) : nothingWritten(err);
    }
  },
};
