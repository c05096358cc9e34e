import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { safeText } from "../format";
import { loadSession, requireEntry } from "../load";
import { cliLlmOptions, summaryProgressPrinter, TIMEOUT_USAGE, timeoutFlag } from "../summary-flags";
import { nothingWritten } from "./compact";
import { notOffered } from "./offered";

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
    const session = await loadSession(onePositional(positionals, "session file", usage));
    const writer = session.format.writer;
    if (!writer?.continueFrom) throw notOffered(session, "a branch summary", "continue", (w) => !!w.continueFrom);
    requireEntry(session, values.to, "to");
    const apiKey = io.env.ANTHROPIC_API_KEY;
    if (values.summarize && !apiKey) throw new CliError("nothing written: ANTHROPIC_API_KEY is not set (leave out --summarize to move the leaf without a summary)");
    try {
      const out = await writer.continueFrom(session, values.to, {
        summarize: values.summarize,
        customInstructions: values.instructions,
        llm: apiKey ? cliLlmOptions(io, apiKey, values.model, totalMs) : undefined,
        onProgress: summaryProgressPrinter(io, "branch"),
      });
      io.out(`moved the leaf of ${safeText(session.path)}\n`);
      for (const l of out.lines) io.out(`  ${safeText(l)}\n`);
    } catch (err) {
      throw nothingWritten(err);
    }
  },
};
