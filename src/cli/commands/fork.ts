import { withArticle } from "../../core/util/human";
import { whyNotOffered } from "../../core/session/capabilities";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { loadSession, requireEntry } from "../load";
import { nothingWritten } from "./compact";

const usage = "ase fork <file> --at ID";

export const forkCommand: CliCommand = {
  name: "fork",
  usage,
  summary: "write a new session file from the path root..ID (as the agent forks; pi's /fork); prints its path",
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { at: { type: "string" } }, usage);
    if (!values.at) throw new CliError(`missing --at ID (usage: ${usage})`);
    const session = await loadSession(onePositional(positionals, "session file", usage));
    requireEntry(session, values.at, "at");
    const format = session.format;
    if (!format.writer?.capabilities.fork) throw new CliError(`${session.path}: ${withArticle(format.agent)} session cannot be forked: ${whyNotOffered(format, "fork")}`);
    try {
      const res = format.writer.fork(session, values.at);
      io.out(`${res.path}\n`);
    } catch (err) {
      throw nothingWritten(err);
    }
  },
};
