import { entryWords, loadedTitleFacts } from "../../core/formats/title-facts";
import { quoted, sessionTitle } from "../../core/util/session-title";
import type { CommandDeps } from "./command-kit";

/**
 * What a fork is told as: the session and the entry by their words ("Forked 'Fix the
 * build' at 'Run the tests'"), not by a new file's timestamp and id; Open shows it.
 */
export async function forkNotice(deps: CommandDeps, file: string, entryId: string): Promise<string> {
  const s = await deps.session(file);
  const i = s.requireIndex(entryId);
  const title = deps.view.titleOf(file) ?? sessionTitle(loadedTitleFacts(s), file);
  return `Forked ${quoted(title, 60)} at ${quoted(entryWords(s, i))}`;
}
