import { withArticle } from "../../core/util/human";
import { shownField } from "../../core/util/visible-text";
import { fileLists } from "../../core/session/file-tally";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { loadSession, reportProblems, requireEntry } from "../load";

const usage = "ase files <file> [--leaf ID | --subtree ID] [--json]";

export const filesCommand: CliCommand = {
  name: "files",
  usage,
  summary: "files read, written and edited along a path or in a subtree",
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { leaf: { type: "string" }, subtree: { type: "string" }, json: { type: "boolean" } }, usage);
    if (values.leaf && values.subtree) throw new CliError("give --leaf or --subtree, not both");
    const session = await loadSession(onePositional(positionals, "session file", usage));
    const positions = values.subtree
      ? session.tree.subtree(requireEntry(session, values.subtree, "subtree"))
      : session.tree.path(requireEntry(session, values.leaf, "leaf"));
    const format = session.format;
    if (!format.files) throw new CliError(`${session.path}: ${withArticle(format.agent)} session records no file operations we can read`);
    const activity = format.files(session, positions);
    // As every reading command does: a skipped line is said, never silently dropped.
    reportProblems(session, io.err);
    if (values.json) {
      io.out(`${JSON.stringify({ files: activity, ...fileLists(activity) }, null, 2)}\n`);
      return;
    }
    if (!activity.length) io.out("no file operations\n");
    for (const a of activity) {
      const what = [a.read && `read ×${a.read}`, a.written && `written ×${a.written}`, a.edited && `edited ×${a.edited}`, ...a.fromSummary.map((k) => `${shownField(k)} (summary)`)].filter(Boolean).join(", ");
      io.out(`${shownField(a.path)}  ${what}  (first: ${shownField(a.firstEntryId)})\n`);
    }
  },
};
