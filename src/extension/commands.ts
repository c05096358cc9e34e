import { dirname } from "node:path";
import * as vscode from "vscode";
import { CancelledError, SummaryError } from "../core/compaction/llm-errors";
import type { CompactionOutcome, CompactionPlan, CompactionStrategy } from "../core/compaction/plan";
import type { EntryAction } from "../protocol";
import { clipText, visibleText } from "../core/util/visible-text";
import { quoted, sessionTitle } from "../core/util/session-title";
import { entryWords, loadedTitleFacts } from "../core/formats/title-facts";
import { formatOf } from "../core/formats/registry";
import type { FormatCompaction } from "../core/session/session-format";
import type { SessionReader } from "../core/session/session-reader";
import { type ActionDeps, type CompactArgs, compact, compactionPlan, compactOtherFormat, continueAt, forkAt, formatCompaction, labelAt, piSession, previewContext, projectFolders } from "./actions";
import { clearApiKey, setApiKey } from "./api-key";
import { compareContexts, type DiffSide, pickCompaction, pickLeaf, showCompactionChange } from "./context-diff";
import { type ContextFormat, PREVIEW_SCHEME } from "./context-preview";
import type { Log } from "./log";
import { pickEntry, pickSession } from "./pickers";
import type { SessionsView, SessionsViewNode } from "./sessions-view";
import { sessionCostReport, totalCost } from "./cost-command";
import type { RangePreset } from "../core/usage/cost-total";
import type { SessionCosts } from "./session-costs";

export interface CommandDeps extends ActionDeps {
  view: SessionsView;
  /** Session costs, cached by file (the Sessions view's and the Total Cost commands'). */
  costs: SessionCosts;
  log: Log;
  /** The file of the focused explorer panel, if any. */
  activeFile(): string | undefined;
}

export type Target = vscode.Uri | string | SessionsViewNode | undefined;

/** Accepts a Uri, a path, or a sessions-view node (context menus pass the node). */
export function fileOf(t: Target): string | undefined {
  if (!t) return undefined;
  if (typeof t === "string") return t;
  if (t instanceof vscode.Uri) return t.fsPath;
  if (typeof t === "object" && "kind" in t && t.kind === "session") return t.session.path;
  if (typeof t === "object" && "kind" in t && t.kind === "subagent") return t.sub.path;
  if (typeof t === "object" && "fsPath" in t) return (t as unknown as vscode.Uri).fsPath;
  return undefined;
}

async function resolveFile(deps: CommandDeps, t: Target, title: string): Promise<string | undefined> {
  return fileOf(t) ?? deps.activeFile() ?? (await pickSession(deps.view, title))?.fsPath;
}

function describeError(err: unknown): string {
  if (err instanceof CancelledError) return "Cancelled; the session file was not changed.";
  if (err instanceof SummaryError) return `${err.message} The session file was not changed.`;
  return (err as Error).message;
}

/**
 * Runs a command body; an error becomes one clear message. Called with a Uri or path
 * (by code: other extensions, keybindings, tests), the error is also rethrown so the
 * caller sees it; from the palette or a menu it is not (VS Code would add a modal).
 */
function guarded<A extends unknown[], R>(deps: CommandDeps, name: string, fn: (...args: A) => Promise<R>): (...args: A) => Promise<R | undefined> {
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
    { title: `Compact ${title}${leafId ? ` at ${leafId}` : ""}: which way?`, matchOnDetail: true },
  );
  if (!picked) return undefined;
  const { s, plan } = picked.choice;
  const instructions = s.paid ? await vscode.window.showInputBox({ title: `Extra instructions for the summary of ${title} (optional)`, placeHolder: "e.g. focus on the database migration" }) : "";
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
  const f = formatOf(got.s);
  const leaf = leafId === undefined ? f.defaultLeaf(got.s) : got.s.requireIndex(leafId);
  const plan = got.compaction.dryRun(got.s, leaf, { project: projectFolders() });
  if (plan.nothingToDo) {
    void vscode.window.showInformationMessage(`Nothing to compact: every message would be kept.\n${plan.lines.join("\n")}`);
    return undefined;
  }
  const instructions = await vscode.window.showInputBox({ title: "Extra instructions for the summary (optional)", placeHolder: "e.g. focus on the database migration" });
  if (instructions === undefined) return undefined;
  const ok = await vscode.window.showInformationMessage(`Compact this ${got.agent} session?`, { modal: true, detail: visibleText(plan.lines.join("\n")) }, "Compact");
  if (ok !== "Compact") return undefined;
  const out = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Compacting ${got.agent} session`, cancellable: true }, (p, token) =>
    compactOtherFormat(deps, file, leafId, instructions || undefined, p, token),
  );
  void vscode.window.showInformationMessage(`Compacted${out.fallbackReason ? " (the summary failed: failure summary written)" : ""}: ${visibleText(out.lines.join("; "))}`);
  return out;
}

export function registerCommands(ctx: vscode.ExtensionContext, deps: CommandDeps): void {
  const reg = (id: string, fn: (...args: never[]) => unknown) => ctx.subscriptions.push(vscode.commands.registerCommand(id, fn as (...args: unknown[]) => unknown));

  reg("agentSessions.openSession", guarded(deps, "Open Session", async (t?: Target, entryId?: string) => {
    const file = fileOf(t) ?? (await pickSession(deps.view, "Open Session"))?.fsPath;
    if (file) await deps.openSession(vscode.Uri.file(file), typeof entryId === "string" ? entryId : undefined);
  }));

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

  reg("agentSessions.forkSession", guarded(deps, "Fork Session", async (t?: Target, entryId?: string) => {
    const file = await resolveFile(deps, t, "Fork Session From Entry");
    if (!file) return undefined;
    const id = entryId ?? (await pickEntry(await deps.session(file), "Fork from which entry?"));
    if (!id) return undefined;
    const path = await forkAt(deps, file, id);
    void deps.view.refresh();
    if (entryId === undefined) {
      const open = await vscode.window.showInformationMessage(await forkNotice(deps, file, id), "Open");
      if (open) await deps.openSession(vscode.Uri.file(path));
    }
    return path;
  }));

  reg("agentSessions.forkLatest", guarded(deps, "Fork Latest", async (t?: Target) => {
    const file = await resolveFile(deps, t, "Fork Latest");
    if (!file) return undefined;
    const s = await deps.session(file);
    // The leaf the agent itself would resume from, by the format's own rule (a Claude Code
    // transcript ending in a sub-agent's sidechain line resumes from its main chain).
    const leaf = formatOf(s).defaultLeaf(s);
    if (leaf < 0) throw new Error(`${file}: no entry to fork from`);
    const path = await forkAt(deps, file, s.metas[leaf].id);
    void deps.view.refresh();
    void vscode.window.showInformationMessage(await forkNotice(deps, file, s.metas[leaf].id), "Open").then((o) => (o ? deps.openSession(vscode.Uri.file(path)) : undefined));
    return path;
  }));

  reg("agentSessions.continueFromEntry", guarded(deps, "Continue From Entry", async (t?: Target, entryId?: string, opts?: { summarize?: boolean }) => {
    const file = await resolveFile(deps, t, "Continue From Entry");
    if (!file) return undefined;
    const id = entryId ?? (await pickEntry(await deps.session(file), "Continue from which entry?"));
    if (!id) return undefined;
    let summarize = opts?.summarize;
    if (summarize === undefined) {
      const pick = await vscode.window.showQuickPick(
        [
          { label: "Without summary", description: "just move the leaf (pi's /tree)", value: false },
          { label: "Summarize the branch being left", description: "asks the LLM; needs an API key", value: true },
        ],
        { title: "Continue from entry" },
      );
      if (!pick) return undefined;
      summarize = pick.value;
    }
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: "Continuing from entry", cancellable: true }, (p, token) => continueAt(deps, file, id, !!summarize, token, p));
  }));

  reg("agentSessions.labelEntry", guarded(deps, "Label Entry", async (t?: Target, entryId?: string, label?: string) => {
    const file = await resolveFile(deps, t, "Label Entry");
    if (!file) return undefined;
    const s = await deps.session(file);
    const id = entryId ?? (await pickEntry(s, "Label which entry?"));
    if (!id) return undefined;
    const text = label ?? (await vscode.window.showInputBox({ title: `Label ${id}`, prompt: "An empty label clears it.", value: s.tree.labels.get(id) ?? "" }));
    if (text === undefined) return undefined;
    return labelAt(deps, file, id, text);
  }));

  reg("agentSessions.compactSession", guarded(deps, "Compact Session", async (t?: Target, args?: CompactArgs) => {
    const file = await resolveFile(deps, t, "Compact Session");
    if (!file) return undefined;
    if (args) {
      // Another format compacts its own way (no strategies); one without compaction is refused by name.
      const other = await formatCompaction(deps, file);
      if (other) {
        if (args.dryRun) {
          const f = formatOf(other.s);
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

  reg("agentSessions.setApiKey", guarded(deps, "Set API Key", async (key?: string) => {
    if (await setApiKey(deps.secrets, key)) void vscode.window.showInformationMessage("Anthropic API key stored in VS Code's secret storage.");
  }));
  reg("agentSessions.clearApiKey", guarded(deps, "Clear API Key", async () => {
    await clearApiKey(deps.secrets);
    void vscode.window.showInformationMessage("Anthropic API key removed.");
  }));
  // Called by code (tests, other extensions) with a range preset ("today", "7d", "30d", "all") and a project's cwd, nothing is asked.
  reg("agentSessions.totalCost", guarded(deps, "Total Cost", async (range?: RangePreset, project?: string) => totalCost(deps, { range, project })));
  reg("agentSessions.projectTotalCost", guarded(deps, "Total Cost", async (node?: SessionsViewNode | string, range?: RangePreset) => {
    const project = typeof node === "string" ? node : node?.kind === "project" ? node.group.cwd : undefined;
    return totalCost(deps, { range, project });
  }));
  reg("agentSessions.sessionCost", guarded(deps, "Session Cost", async (t?: Target) => {
    const file = await resolveFile(deps, t, "Cost of which session?");
    if (!file) return undefined;
    return sessionCostReport(deps, file, deps.view.titleOf(file) ?? sessionTitle(undefined, file));
  }));
  reg("agentSessions.showLog", () => deps.log.show());
  reg("agentSessions.refresh", () => deps.view.refresh());
  reg("agentSessions.filter", async () => {
    const text = await vscode.window.showInputBox({ title: "Filter sessions", prompt: "Matches name, first message, project and path", value: deps.view.filter });
    if (text !== undefined) deps.view.setFilter(text);
  });
  reg("agentSessions.clearFilter", () => deps.view.setFilter(""));
  reg("agentSessions.openAsText", (t?: Target) => {
    const file = fileOf(t);
    if (file) return vscode.commands.executeCommand("vscode.open", vscode.Uri.file(file));
  });
  reg("agentSessions.revealInOS", (t?: Target) => {
    const file = fileOf(t);
    if (file) return vscode.commands.executeCommand("revealFileInOS", vscode.Uri.file(file));
  });
  reg("agentSessions.copyPath", async (t?: Target) => {
    const file = fileOf(t);
    if (file) await vscode.env.clipboard.writeText(file);
  });
  reg("agentSessions.openSessionsFolder", () => vscode.commands.executeCommand("revealFileInOS", vscode.Uri.file(dirname(deps.view.allSessions()[0]?.path ?? ""))));
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
