import type { SessionReader } from "../core/session/session-reader";
import { lastPromptOn } from "../core/formats/title-facts";
import { quoted } from "../core/util/session-title";
import { clipText, visibleText } from "../core/util/visible-text";

/** How many other branches get a bar besides the default and the selected leaf. */
const OTHER_BRANCHES = 6;

/** An other branch's title: its last prompt in the user's words (an id says nothing to a reader). */
function branchTitle(session: SessionReader, leaf: number): string {
  const prompt = lastPromptOn(session, leaf);
  return prompt !== undefined ? `Branch after ${quoted(prompt)}` : "Branch with no prompt";
}

/**
 * The leaves a panel draws bars for, titled: the default leaf (where the agent
 * continues), the selected branch, and the most recent other branches; a leaf's label
 * goes into its title.
 */
export function barLeaves(
  session: SessionReader,
  defaultLeaf: number,
  selectedLeaf: number | undefined,
  agent: string,
  branchEnd?: (leaf: number) => number,
): Array<{ leaf: number; id: string; title: string; selected: boolean }> {
  const tree = session.tree;
  const leaves: Array<[number, string]> = [[defaultLeaf, `Default leaf (where ${agent} continues)`]];
  if (selectedLeaf !== undefined && selectedLeaf !== defaultLeaf) leaves.push([selectedLeaf, "Selected branch"]);
  // Where a format's leaf is not where its branch ends (a trailing progress or system line), the branch's end
  // stands for it; an end on the default leaf's own path is no branch of its own.
  const onDefault = branchEnd && defaultLeaf >= 0 ? new Set(tree.path(defaultLeaf)) : undefined;
  const ends = branchEnd ? [...new Set(tree.leaves().map(branchEnd))].filter((e) => e >= 0 && !onDefault?.has(e)) : tree.leaves();
  const others = ends.filter((l) => l !== defaultLeaf && l !== selectedLeaf);
  for (const l of others.slice(-OTHER_BRANCHES).reverse()) leaves.push([l, branchTitle(session, l)]);
  return leaves.map(([leaf, title]) => {
    const id = session.metas[leaf].id;
    const label = tree.labels.get(id);
    return { leaf, id, title: label ? `${title} [${visibleText(clipText(label, 60))}]` : title, selected: leaf === (selectedLeaf ?? defaultLeaf) };
  });
}
