import { withArticle } from "../../core/util/human";
import { seconds } from "../../core/compaction/budgets";
import { type CompactionStrategy, NothingToCompactError, STRATEGIES, strategyCallsModel } from "../../core/compaction/plan";
import { PartialWriteError } from "../../core/store/append-line";
import { intFlag, onePositional, parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { safeText } from "../format";
import { loadSession, requireEntry } from "../load";
import { cliLlmOptions, summaryProgressPrinter, TIMEOUT_USAGE, timeoutFlag } from "../summary-flags";
import { agentsWith, notOffered } from "./offered";

const usage =
  `ase compact <file> [--leaf ID] [--dry-run] [--strategy summarize|truncate|smart] [--instructions TEXT] [--model M] [--allow-fallback] [--keep-recent N] [--reserve N] ${TIMEOUT_USAGE}`;

/** The error, naming the file when it does not yet (a script compacting many files must tell which one refused). */
function naming(path: string, err: CliError): CliError {
  return err.message.includes(path) ? err : new CliError(`${path}: ${err.message}`, err.exitCode);
}

/**
 * Failures the user can act on, as one line that says what is on disk: "nothing
 * written" unless the error says otherwise (a torn append it could not undo).
 */
export function nothingWritten(err: unknown): CliError {
  if (err instanceof CliError) return err;
  if (err instanceof PartialWriteError) return new CliError(err.message);
  const msg = (err as Error).message.replace(/[;,]? ?nothing written$/, "");
  return new CliError(msg.startsWith("nothing written") ? msg : `nothing written: ${msg}`);
}

/** The flags only a compaction with strategies and settings takes (pi's cut point by keepRecentTokens). */
const SETTING_FLAGS = ["keep-recent", "reserve", "allow-fallback"] as const;

export const compactCommand: CliCommand = {
  name: "compact",
  usage,
  summary: "append a compaction at the leaf, as the session's agent compacts (pi: summarize|truncate|smart by keepRecentTokens; clawdcode: its own rule, summarize all but the last 20%) (summary via ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL); --dry-run shows the plan; --timeout caps the summary, retries included (default 300 s)",
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
    const strategy = values.strategy as CompactionStrategy | undefined;
    if (strategy !== undefined && !STRATEGIES.includes(strategy)) throw new CliError(`--strategy must be ${STRATEGIES.join(", ")}; got "${values.strategy}"`);
    const totalMs = timeoutFlag(values.timeout);
    const settings = { keepRecentTokens: intFlag(values["keep-recent"], "keep-recent"), reserveTokens: intFlag(values.reserve, "reserve") };
    const session = await loadSession(onePositional(positionals, "session file", usage));
    const format = session.format;
    const compaction = format.writer?.compaction;
    if (!compaction) throw notOffered(session, "compacting", "compact", (w) => !!w.compaction);
    const agent = safeText(format.agent);
    // A format without strategies compacts its agent's one way: the choices are refused by name, never ignored.
    const offered = compaction.strategies;
    const withStrategies = agentsWith((w) => !!w.compaction?.strategies);
    if (strategy !== undefined && !(offered ?? ["summarize"]).includes(strategy)) {
      throw new CliError(`${session.path}: ${withArticle(agent)} session is compacted its agent's one way; --strategy ${safeText(strategy)} is for ${withStrategies} sessions`);
    }
    if (!offered) {
      for (const flag of SETTING_FLAGS) {
        if (values[flag] !== undefined) throw new CliError(`${session.path}: --${flag} is for ${withStrategies} sessions; ${withArticle(agent)} session compacts by its agent's own rule (see --dry-run)`);
      }
    }
    const leaf = requireEntry(session, values.leaf, "leaf");
    if (leaf < 0) throw new CliError(`${session.path}: the session has no entries; nothing written`);
    // Files go into the prompt only from the folder ase runs in (the project the user is in).
    const planOpts = { strategy, settings, model: values.model, project: [io.cwd] };

    if (values["dry-run"]) {
      let plan: { lines: string[]; nothingToDo: boolean };
      try {
        plan = compaction.dryRun(session, leaf, planOpts);
      } catch (err) {
        throw naming(session.path, new CliError((err as Error).message));
      }
      io.out(`dry run for ${safeText(session.path)} (${agent}; nothing written)\n`);
      for (const l of plan.lines) io.out(`  ${safeText(l)}\n`);
      if (plan.nothingToDo) io.out("  note: nothing to compact: every message would be kept\n");
      const refused = format.writer?.refuses?.(session);
      if (refused) io.out(`  note: compacting it would be refused: ${safeText(refused)}\n`);
      return;
    }
    const apiKey = io.env.ANTHROPIC_API_KEY;
    if (strategyCallsModel(strategy ?? "summarize") && !apiKey) {
      throw new CliError(`nothing written: ANTHROPIC_API_KEY is not set${offered?.includes("truncate") ? " (or use --strategy truncate, which needs no LLM)" : ""}`);
    }
    const started = Date.now();
    const print = summaryProgressPrinter(io, "compact");
    try {
      const out = await compaction.run(session, leaf, {
        ...planOpts,
        customInstructions: values.instructions,
        allowFallback: values["allow-fallback"],
        llm: apiKey ? cliLlmOptions(io, apiKey, values.model, totalMs) : undefined,
        onProgress: (p) => {
          if (p.type === "fallback") io.err(`ase compact: note: the summary failed (${safeText(p.reason)}); ${compaction.fallbackNote}\n`);
          else print(p);
        },
      });
      io.out(`compacted ${safeText(session.path)} (${agent}) in ${seconds(Date.now() - started)}\n`);
      for (const l of out.lines) io.out(`  ${safeText(l)}\n`);
    } catch (err) {
      // A refusal names the session; an API failure keeps its "nothing written: <why>" form.
      throw err instanceof NothingToCompactError ? naming(session.path, nothingWritten(err)) : nothingWritten(err);
    }
  },
};
