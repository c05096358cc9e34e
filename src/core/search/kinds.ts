import { ENTRY_KINDS, type EntryKind } from "../session/entry-kinds";
import { SearchInputError } from "./pattern";

/** Names that stand for several kinds: `tool` for calls, results and shell commands, `summary` for every summary. */
export const KIND_GROUPS: Readonly<Record<string, readonly EntryKind[]>> = {
  tool: ["tool-call", "tool-result", "shell"],
  summary: ["summary", "boundary", "branch-summary"],
};

/** The kinds a filter names (neutral kinds or groups); undefined: every kind. */
export function kindSet(names: readonly string[] | undefined): ReadonlySet<EntryKind> | undefined {
  if (!names?.length) return undefined;
  const out = new Set<EntryKind>();
  for (const n of names) {
    const group = KIND_GROUPS[n];
    if (group) for (const k of group) out.add(k);
    else if ((ENTRY_KINDS as readonly string[]).includes(n)) out.add(n as EntryKind);
    else throw new SearchInputError(`unknown kind "${n}" (kinds: ${[...Object.keys(KIND_GROUPS), ...ENTRY_KINDS.filter((k) => !(k in KIND_GROUPS))].join(", ")})`);
  }
  return out;
}
