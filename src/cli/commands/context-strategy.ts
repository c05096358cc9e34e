import { withArticle } from "../../core/util/human";
import type { FormatContext } from "../../core/session/session-format";
import type { SessionReader } from "../../core/session/session-reader";
import { CliError, type CliIO } from "../cli-error";
import { safeText } from "../format";
import { cliLlmOptions, summaryProgressPrinter, timeoutFlag } from "../summary-flags";

/** --max-tokens (in the command's usage already) is the strategy's limit when --strategy is given. */
export const STRATEGY_USAGE = "[--strategy NAME [--keep-recent N] [--dry-run] [--model M] [--timeout SECONDS]]";

export interface StrategyFlags {
  strategy: string;
  keepRecent?: number;
  maxTokens?: number;
  dryRun?: boolean;
  model?: string;
  timeout?: string;
}

/** The session's own model on the path: the last one recorded (the summary may use it). */
function modelOnPath(session: SessionReader, ctx: FormatContext): string | undefined {
  let model: string | undefined;
  for (const m of ctx.messages) model = session.meta(m.entryId)?.model ?? model;
  return model;
}

/**
 * A context shrunk as the agent itself would (a format's strategies): with --dry-run the
 * selection by entry id and nothing is called; otherwise the messages after it, the
 * summary written by the LLM when the strategy summarizes. Nothing is ever written.
 */
export async function strategyContext(session: SessionReader, leaf: number, flags: StrategyFlags, io: CliIO): Promise<unknown> {
  const format = session.format;
  const strategies = format.strategies;
  if (!strategies) throw new CliError(`${session.path}: ${withArticle(format.agent)} session has no context strategies${format.id === "pi" ? " (pi shrinks a context by compaction: ase compact)" : ""}`);
  if (!strategies.names.includes(flags.strategy)) throw new CliError(`--strategy must be ${strategies.names.join(", ")} for ${withArticle(format.agent)} session; got "${flags.strategy}"`);
  const totalMs = timeoutFlag(flags.timeout);
  const ctx = format.context(session, leaf);
  const messages = ctx.messages.map((m) => m.message);
  let plan;
  try {
    plan = strategies.plan(flags.strategy, messages, { keepRecent: flags.keepRecent, maxTokens: flags.maxTokens });
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  const idsOf = (indexes: number[]) => indexes.map((i) => ctx.messages[i].entryId);
  if (flags.dryRun) {
    return {
      leafId: ctx.leafId,
      strategy: plan.strategy,
      applies: plan.applies,
      ...(plan.why ? { why: plan.why } : {}),
      keepRecent: plan.keepRecent,
      maxTokens: plan.maxTokens,
      tokensBefore: plan.tokensBefore,
      keptTokens: plan.keptTokens,
      kept: idsOf(plan.kept),
      summarized: idsOf(plan.summarized),
      dropped: idsOf(plan.dropped),
      ...(plan.reasons ? { reasons: Object.fromEntries([...plan.reasons].map(([i, why]) => [ctx.messages[i].entryId, why])) } : {}),
    };
  }
  if (!plan.applies) io.err(`ase context: note: ${flags.strategy} changes nothing: ${safeText(plan.why ?? "")}\n`);
  let summary: string | undefined;
  if (plan.summarized.length) {
    const apiKey = io.env.ANTHROPIC_API_KEY;
    if (!apiKey) throw new CliError(`${flags.strategy} needs a summary of ${plan.summarized.length} message(s): ANTHROPIC_API_KEY is not set (--dry-run shows the selection without it; truncate needs no LLM)`);
    try {
      const res = await strategies.summarize(
        plan.summarized.map((i) => messages[i]),
        cliLlmOptions(io, apiKey, flags.model, totalMs),
        { onProgress: summaryProgressPrinter(io, "context"), sessionModel: modelOnPath(session, ctx) },
      );
      summary = res.text;
    } catch (err) {
      throw new CliError(`${flags.strategy}: no summary: ${(err as Error).message}`);
    }
  }
  return { messages: strategies.apply(plan, messages, summary) };
}
