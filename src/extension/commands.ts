import * as vscode from "vscode";
import { CancelledError, SummaryError } from "../core/compaction/llm-errors";
import type { CompactionOutcome, CompactionPlan, CompactionStrategy } from "../core/compaction/plan";
import type { EntryAction } from "../protocol";
import { visibleText } from "../core/util/visible-text";
import type { FormatCompaction } from "../core/session/session-format";
import type { SessionReader } from "../core/session/session-reader";
import { type CompactArgs, compact, compactionPlan, compactOtherFormat, formatCompaction, piSession, projectFolders } from "./actions";
import { type CommandDeps, registrar, resolveFile, type Target } from "./commands/command-kit";
import { forkNotice } from "./commands/fork-notice";
import { PREVIEW_SCHEME } from "./context-preview";
import { quoted, sessionTitle } from "../core/util/session-title";
import { loadedTitleFacts } from "../core/formats/title-facts";

/*
 * How a command runs (its error told as one message), the compaction commands, and the
 * webview's entry actions (which run the compaction flow directly). The other commands
 * are registered by feature in ./commands/.
 */

export function describeError(err: unknown): string {
  if (err instanceof CancelledError) return "Cancelled; the session file was not changed.";
  if (err instanceof SummaryError) return `${err.message} The session file was not changed.`;
  return (err as Error).message;
}

/**
 * Runs a command body; an error becomes one clear message. Called with a Uri or path
 * (by code: other extensions, keybindings, tests), the error is also rethrown so the
 * caller sees it; from the palette or a menu it is not (VS Code would add a modal).
 */
export function guarded<A extends unknown[], R>(deps: CommandDeps, name: string, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R | undefined> {
  return async (...args: A) => {
    try {
      return await fn(...args);
    } catch (err) {
      const msg = describeError(err);
      deps.log.error(`${name}: ${msg}`);
      // Errors may quote session text (ids, names): shown on one line, hidden characters marked.
      void vscode.window.showErrorMessage(visibleText(msg));
      const first = args[0];
      if (typeof first === "string" || first instanceof vscode.Uri) throw err;
      return undefined;
    }
  };
}

function planSummary(p: CompactionPlan): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const lines = [
    `${p.strategy}: ${n(p.tokensBefore)} tokens now -> about ${n(p.tokensAfterEstimate)} after.`,
    `Summarizes ${p.toSummarize.length} messages (${n(p.summarizeTokens)} tokens)${p.isSplitTurn ? ` plus a split turn (${p.turnPrefix.length} messages)` : ""}; keeps ${p.keptMessages} messages (${n(p.keptTokens)} tokens) from ${p.firstKeptEntryId}.`,
  ];
  if (p.strategy !== "truncate") lines.push(`Model: ${p.model}${p.previousSummary ? "; updates the previous summary" : ""}.`);
  if (p.readFiles.length || p.modifiedFiles.length) lines.push(`Files: ${p.readFiles.length} read, ${p.modifiedFiles.length} modified.`);
  return [...lines, ...p.notes].join("\n");
}

/** A compaction strategy as the palette offers it. */
const STRATEGIES: Array<{ strategy: CompactionStrategy; label: string; description: string; paid: boolean }> = [
  { strategy: "summarize", label: "Summarize", description: "pi's default: an LLM summary of everything before the kept part", paid: true },
  { strategy: "smart", label: "Smart", description: "keep tool calls, errors and long messages verbatim; summarize the rest", paid: true },
  { strategy: "truncate", label: "Truncate", description: "no model call: drop the older part, keep the recent one", paid: false },
];

/**
 * The palette flow, plan first: the session is named, each strategy shows what it would
 * do before one is chosen, "nothing to compact" is said as information before any
 * question, and the dialog's default button is the free one ("Show the Plan"), never the
 * paid model call.
 */
export async function compactInteractive(deps: CommandDeps, file: string, leafId?: string): Promise<CompactionOutcome | { lines: string[] } | undefined> {
  // Another format compacts its own way; one without compaction is refused before any question.
  const other = await formatCompaction(deps, file);
  if (other) return compactOtherInteractive(deps, file, other, leafId);
  const session = await piSession(deps, file, "Compaction");
  const title = quoted(deps.view.titleOf(file) ?? sessionTitle(loadedTitleFacts(session), file), 60);
  let plans: Array<{ s: (typeof STRATEGIES)[number]; plan: CompactionPlan }>;
  try {
    plans = STRATEGIES.map((s) => ({ s, plan: compactionPlan(session, { strategy: s.strategy, leafId }) }));
  } catch (err) {
    // The format says so by the error's name (no class of a format's folder is named here).
    if (!(err instanceof Error) || err.name !== "NothingToCompactError") throw err;
    void vscode.window.showInformationMessage(`Nothing to compact in ${title}: ${visibleText(err.message)}`);
    return undefined;
  }
  const n = (x: number) => x.toLocaleString("en-US");
  const picked = await vscode.window.showQuickPick(
    plans.map(({ s, plan }) => ({
      label: s.label,
      description: s.description,
      detail: `${n(plan.tokensBefore)} -> about ${n(plan.tokensAfterEstimate)} tokens; summarizes ${plan.toSummarize.length} messages, keeps ${plan.keptMessages}${s.paid ? `; calls ${plan.model}` : ""}`,
      choice: { s, plan },
    })),
    // Kept open when the focus moves: an explorer still loading a large session takes the focus
    // as it settles, which closed the pick under a person's (and a CI run's) click.
    { title: `Compact ${title}${leafId ? ` at ${leafId}` : ""}: which way?`, matchOnDetail: true, ignoreFocusOut: true },
  );
  if (!picked) return undefined;
  const { s, plan } = picked.choice;
  const instructions = s.paid ? await vscode.window.showInputBox({ title: `Extra instructions for the summary of ${title} (optional)`, placeHolder: "e.g. focus on the database migration", ignoreFocusOut: true }) : "";
  if (instructions === undefined) return undefined;
  const go = s.paid ? `Compact (calls ${plan.model})` : "Compact";
  const show = "Show the Plan";
  // The first button is the dialog's default: for a paid call, the free one.
  const answer = await vscode.window.showInformationMessage(`Compact ${title}?`, { modal: true, detail: planSummary(plan) }, ...(s.paid ? [show, go] : [go]));
  if (answer === show) {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/Compaction plan of ${visibleText(deps.view.titleOf(file) ?? "the session").replace(/[\\/]/g, "-").slice(0, 60)}.txt`, query: `t=${Date.now()}` });
    deps.previews.set(uri, `${planSummary(plan)}\n`);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    return undefined;
  }
  if (answer !== go) return undefined;
  const out = (await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Compacting ${title}`, cancellable: true }, (p, token) =>
    compact(deps, file, { strategy: s.strategy, leafId, instructions: instructions || undefined }, p, token),
  )) as CompactionOutcome;
  void vscode.window.showInformationMessage(`Compacted ${title} (${out.strategy}${out.fallbackReason ? ", fallback" : ""}): ${out.tokensBefore.toLocaleString("en-US")} -> ${out.tokensAfter.toLocaleString("en-US")} tokens.`);
  return out;
}

/** The palette flow for a format with its own compaction: its dry run to confirm, then progress with cancel. */
async function compactOtherInteractive(deps: CommandDeps, file: string, got: { s: SessionReader; compaction: FormatCompaction; agent: string }, leafId?: string): Promise<{ lines: string[] } | undefined> {
  const f = got.s.format;
  const leaf = leafId === undefined ? f.defaultLeaf(got.s) : got.s.requireIndex(leafId);
  const plan = got.compaction.dryRun(got.s, leaf, { project: projectFolders() });
  if (plan.nothingToDo) {
    void vscode.window.showInformationMessage(`Nothing to compact: every message would be kept.\n${plan.lines.join("\n")}`);
    return undefined;
  }
  const instructions = await vscode.window.showInputBox({ title: "Extra instructions for the summary (optional)", placeHolder: "e.g. focus on the database migration", ignoreFocusOut: true });
  if (instructions === undefined) return undefined;
  const ok = await vscode.window.showInformationMessage(`Compact this ${got.agent} session?`, { modal: true, detail: visibleText(plan.lines.join("\n")) }, "Compact");
  if (ok !== "Compact") return undefined;
  const out = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Compacting ${got.agent} session`, cancellable: true }, (p, token) =>
    compactOtherFormat(deps, file, leafId, instructions || undefined, p, token),
  );
  void vscode.window.showInformationMessage(`Compacted${out.fallbackReason ? " (the summary failed: failure summary written)" : ""}: ${visibleText(out.lines.join("; "))}`);
  return out;
}

export function registerCompactCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = registrar(ctx);
  reg("agentSessions.compactSession", guarded(deps, "Compact Session", async (t?: Target, args?: CompactArgs) => {
    const file = await resolveFile(deps, t, "Compact Session");
    if (!file) return undefined;
    if (args) {
      // Another format compacts its own way (no strategies); one without compaction is refused by name.
      const other = await formatCompaction(deps, file);
      if (other) {
        if (args.dryRun) {
          const f = other.s.format;
          return other.compaction.dryRun(other.s, args.leafId === undefined ? f.defaultLeaf(other.s) : other.s.requireIndex(args.leafId), { project: projectFolders() });
        }
        return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Compacting ${other.agent} session`, cancellable: true }, (p, token) =>
          compactOtherFormat(deps, file, args.leafId, args.instructions, p, token),
        );
      }
      return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Compacting session", cancellable: true }, (p, token) => compact(deps, file, args, p, token));
    }
    return compactInteractive(deps, file);
  }));
}

/** Entry actions from the webview's buttons: the same commands, with the entry filled in. */
export async function runEntryAction(deps: CommandDeps, action: EntryAction, file: string, entryId: string): Promise<void> {
  const uri = vscode.Uri.file(file);
  const map: Record<EntryAction, () => Thenable<unknown>> = {
    fork: () => vscode.commands.executeCommand("agentSessions.forkSession", uri, entryId).then((p) => {
      if (typeof p === "string") return forkNotice(deps, file, entryId).then((notice) => vscode.window.showInformationMessage(notice, "Open")).then((o) => (o ? vscode.commands.executeCommand("agentSessions.openSession", vscode.Uri.file(p)) : undefined));
      return undefined;
    }),
    continue: () => vscode.commands.executeCommand("agentSessions.continueFromEntry", uri, entryId),
    label: () => vscode.commands.executeCommand("agentSessions.labelEntry", uri, entryId),
    previewContext: () => vscode.commands.executeCommand("agentSessions.previewContext", uri, entryId),
    compareContext: () => vscode.commands.executeCommand("agentSessions.diffContexts", uri, entryId),
    compactionChange: () => vscode.commands.executeCommand("agentSessions.compactionChange", uri, entryId),
    compact: () => compactInteractive(deps, file, entryId),
  };
  try {
    await map[action]();
  } catch (err) {
    // Commands show their own errors; the compaction flow is called directly.
    if (action === "compact") {
      deps.log.error(`Compact: ${describeError(err)}`);
      void vscode.window.showErrorMessage(visibleText(describeError(err)));
    }
  }
}
