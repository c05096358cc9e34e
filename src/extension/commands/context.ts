import type * as vscode from "vscode";
import { previewContext } from "../actions";
import { compareContexts, type DiffSide, pickCompaction, pickLeaf, showCompactionChange } from "../context-diff";
import type { ContextFormat } from "../context-preview";
import { guarded } from "../commands";
import { type CommandDeps, fileOf, registrar, resolveFile, type Target } from "./command-kit";

/** What the model sees: Preview Context, Compare Contexts, What This Compaction Changed. */
export function registerContextCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  reg("agentSessions.previewContext", guarded(deps, "Preview Context", async (t?: Target, leafId?: string, format?: ContextFormat, strategy?: string) => {
    const file = await resolveFile(deps, t, "Preview Context");
    if (!file) return undefined;
    return previewContext(deps, file, leafId, format, strategy);
  }));

  reg("agentSessions.diffContexts", guarded(deps, "Compare Contexts", async (t?: Target, leafA?: string | null, leafB?: string | null, other?: Target) => {
    const file = await resolveFile(deps, t, "Compare Contexts of Two Entries");
    if (!file) return undefined;
    const a: DiffSide | undefined = leafA !== undefined ? { file, leafId: leafA } : await pickLeaf(deps, file, "Compare contexts: the first leaf (left)");
    if (!a) return undefined;
    const fileB = fileOf(other) ?? file;
    const b: DiffSide | undefined = leafB !== undefined ? { file: fileB, leafId: leafB } : await pickLeaf(deps, fileB, `Compare the context of ${a.leafId ?? "(empty)"} with…`, a.leafId ?? undefined);
    if (!b) return undefined;
    return compareContexts(deps, a, b);
  }));

  reg("agentSessions.compactionChange", guarded(deps, "What This Compaction Changed", async (t?: Target, entryId?: string) => {
    const file = await resolveFile(deps, t, "What a Compaction Changed");
    if (!file) return undefined;
    const id = entryId ?? (await pickCompaction(deps, file));
    if (!id) return undefined;
    return showCompactionChange(deps, file, id);
  }));
}
