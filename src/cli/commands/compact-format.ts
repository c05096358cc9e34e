import { seconds } from "../../core/compaction/budgets";
import { formatOf } from "../../core/formats/registry";
import type { FormatCompaction } from "../../core/session/session-format";
import type { SessionReader } from "../../core/session/session-reader";
import { type CliIO, CliError } from "../cli-error";
import { safeText } from "../format";
import { requireEntry } from "../load";
import { cliLlmOptions, summaryProgressPrinter } from "../summary-flags";

/** The flags `ase compact` takes; pi's own settings mean nothing for another format's compaction. */
export interface FormatCompactFlags {
  leaf?: string;
  "dry-run"?: boolean;
  strategy?: string;
  instructions?: string;
  model?: string;
  "keep-recent"?: string;
  reserve?: string;
  "allow-fallback"?: boolean;
}

/** `ase compact` on a session whose format compacts its own way (clawdcode): a dry run first, as for pi. */
export async function compactFormatCli(session: SessionReader, values: FormatCompactFlags, io: CliIO, totalMs: number | undefined): Promise<void> {
  const format = formatOf(session);
  const compaction = format.writer?.compaction as FormatCompaction;
  const agent = safeText(format.agent);
  if (values.strategy !== undefined && values.strategy !== "summarize") {
    throw new CliError(`${session.path}: a ${agent} session is compacted its agent's one way; --strategy ${safeText(values.strategy)} is for pi sessions`);
  }
  for (const flag of ["keep-recent", "reserve", "allow-fallback"] as const) {
    if (values[flag] !== undefined) throw new CliError(`${session.path}: --${flag} is for pi sessions; a ${agent} session compacts by its agent's own rule (see --dry-run)`);
  }
  const leaf = requireEntry(session, values.leaf, "leaf");
  if (leaf < 0) throw new CliError(`${session.path}: the session has no entries; nothing written`);
  if (values["dry-run"]) {
    let plan: { lines: string[]; nothingToDo: boolean };
    try {
      plan = compaction.dryRun(session, leaf, { project: [io.cwd] });
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    io.out(`dry run for ${safeText(session.path)} (${agent}; nothing written)\n`);
    for (const l of plan.lines) io.out(`  ${safeText(l)}\n`);
    if (plan.nothingToDo) io.out("  note: nothing to compact: every message would be kept\n");
    return;
  }
  const apiKey = io.env.ANTHROPIC_API_KEY;
  if (!apiKey) throw new CliError("nothing written: ANTHROPIC_API_KEY is not set");
  const started = Date.now();
  const print = summaryProgressPrinter(io, "compact");
  const out = await compaction.run(session, leaf, {
    customInstructions: values.instructions,
    llm: cliLlmOptions(io, apiKey, values.model, totalMs),
    // Files go into the prompt only from the folder ase runs in (the project the user is in).
    project: [io.cwd],
    onProgress: (p) => {
      if (p.type === "fallback") io.err(`ase compact: note: the summary failed (${safeText(p.reason)}); ${compaction.fallbackNote}\n`);
      else print(p);
    },
  });
  io.out(`compacted ${safeText(session.path)} (${agent}) in ${seconds(Date.now() - started)}\n`);
  for (const l of out.lines) io.out(`  ${safeText(l)}\n`);
}
