import { branchSession } from "../../core/formats/pi/compaction/branch-summary";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { humanTokens, safeText } from "../format";
import { loadPiSession, requireEntry } from "../load";
import { cliLlmOptions, summaryProgressPrinter, TIMEOUT_USAGE, timeoutFlag } from "../summary-flags";
import { nothingWritten } from "./compact";

const usage = `ase branch <file> --to ID [--summarize] [--instructions TEXT] [--model M] ${TIMEOUT_USAGE}`;

export const branchCommand: CliCommand = {
  name: "branch",
  usage,
  summary: "move the leaf to ID as pi's /tree does (appends a branch_summary; --summarize summarizes the branch left; --timeout caps it, default 300 s)",
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      { to: { type: "string" }, summarize: { type: "boolean" }, instructions: { type: "string" }, model: { type: "string" }, timeout: { type: "string" } },
      usage,
    );
    const totalMs = timeoutFlag(values.timeout);
    if (!values.to) throw new CliError(`missing --to ID (usage: ${usage})`);
    const session = await loadPiSession(onePositional(positionals, "session file", usage), "a branch summary", "continue");
    requireEntry(session, values.to, "to");
    const apiKey = io.env.ANTHROPIC_API_KEY;
    if (values.summarize && !apiKey) throw new CliError("nothing written: ANTHROPIC_API_KEY is not set (leave out --summarize to move the leaf without a summary)");
    try {
      const out = await branchSession(session, {
        targetId: values.to,
        summarize: values.summarize,
        customInstructions: values.instructions,
        llm: apiKey ? cliLlmOptions(io, apiKey, values.model, totalMs) : undefined,
        onProgress: summaryProgressPrinter(io, "branch"),
      });
      const p = out.plan;
      io.out(`moved the leaf of ${safeText(session.path)}\n`);
      io.out(`  entry: ${safeText(out.entry.id)} (branch_summary, parent ${safeText(p.targetId)}, from ${safeText(String(p.fromLeafId))})\n`);
      io.out(`  branch left: ${p.branchEntryIds.length} entr${p.branchEntryIds.length === 1 ? "y" : "ies"} after ${p.commonAncestorId ? safeText(p.commonAncestorId) : "(no common ancestor)"}\n`);
      if (out.summarized) {
        io.out(`  summarized ${p.messages.length} message(s), ~${humanTokens(p.totalTokens)} tokens${p.leftOut ? ` (${p.leftOut} older left out: budget)` : ""}; model ${safeText(p.model)}\n`);
        io.out(`  read files: ${p.readFiles.length ? p.readFiles.map(safeText).join(", ") : "(none)"}\n`);
        io.out(`  modified files: ${p.modifiedFiles.length ? p.modifiedFiles.map(safeText).join(", ") : "(none)"}\n`);
      } else {
        io.out(`  summary: (empty${values.summarize ? ": nothing on the branch to summarize" : ""})\n`);
      }
    } catch (err) {
      throw nothingWritten(err);
    }
  },
};
