import { forkSession } from "../../core/store/fork";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { loadSession, requireEntry } from "../load";
import { nothingWritten } from "./compact";

const usage = "ase fork <file> --at ID";

export const forkCommand: CliCommand = {
  name: "fork",
  usage,
  summary: "write a new session file from the path root..ID (pi's /fork); prints its path",
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { at: { type: "string" } }, usage);
    if (!values.at) throw new CliError(`missing --at ID (usage: ${usage})`);
    const session = await loadSession(onePositional(positionals, "session file", usage));
    requireEntry(session, values.at, "at");
    try {
      const res = forkSession(session, values.at);
      io.out(`${res.path}\n`);
    } catch (err) {
      throw nothingWritten(err);
    }
  },
};
