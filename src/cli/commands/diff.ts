import { compactionChange } from "../../core/diff/compaction-change";
import { diffContexts } from "../../core/diff/diff-contexts";
import { onePositional, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";
import { loadSession, reportProblems, requireEntry } from "../load";
import { diffJson, diffText } from "./diff-output";

const usage = "ase diff <file> --a ID --b ID [--against FILE2] [--json] | ase diff <file> --compaction ID [--json]";

async function run(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseFlags(
    args,
    {
      a: { type: "string" },
      b: { type: "string" },
      against: { type: "string" },
      compaction: { type: "string" },
      json: { type: "boolean" },
    },
    usage,
  );
  const path = onePositional(positionals, "session file", usage);
  if (values.compaction !== undefined) {
    const extra = (["a", "b", "against"] as const).find((f) => values[f] !== undefined);
    if (extra) throw new CliError(`--compaction compares the context before and after one entry; it takes no --${extra} (usage: ${usage})`);
  } else if (values.against === undefined && (values.a === undefined || values.b === undefined)) {
    // Across two files each side defaults to its file's leaf; within one, both must be named.
    throw new CliError(`missing ${values.a === undefined ? "--a ID" : "--b ID"} (usage: ${usage})`);
  }
  const session = await loadSession(path);
  if (values.compaction !== undefined) {
    const at = session.tree.indexOf(values.compaction);
    if (at === undefined) throw new CliError(`${session.path}: no entry with id "${values.compaction}" (given by --compaction)`);
    let change: ReturnType<typeof compactionChange>;
    try {
      change = compactionChange(session, at);
    } catch (err) {
      throw new CliError((err as Error).message);
    }
    reportProblems(session, io.err);
    const recordedAt = change.diff.b.tokens.recordedAt;
    const staleUsage = recordedAt !== undefined && session.requireIndex(recordedAt) < at;
    const sides = { ...change, beforeId: change.diff.a.leafId, afterId: change.diff.b.leafId as string, staleUsage };
    io.out(values.json ? `${JSON.stringify(diffJson(change.diff, sides), null, 2)}\n` : diffText(change.diff, sides));
    return;
  }
  const other = values.against === undefined ? session : await loadSession(values.against);
  const a = requireEntry(session, values.a, "a");
  const b = requireEntry(other, values.b, "b");
  reportProblems(session, io.err);
  if (other !== session) reportProblems(other, io.err);
  const d = diffContexts({ session, leaf: a }, { session: other, leaf: b });
  io.out(values.json ? `${JSON.stringify(diffJson(d), null, 2)}\n` : diffText(d));
}

export const diffCommand: CliCommand = {
  name: "diff",
  usage,
  summary: "compare what the agent sends for two leaves (--against: of another file) or before and after a compaction: shared prefix, messages only in one, word diffs, tokens per part",
  run,
};
