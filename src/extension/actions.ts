import * as vscode from "vscode";
import { type CompactionOutcome, type CompactionPlan, type CompactionStrategy, NothingToCompactError, STRATEGIES, strategyCallsModel } from "../core/compaction/plan";
import { type SummaryStatusEvent, summaryStatus } from "../core/compaction/progress-text";
import type { LlmOptions } from "../core/compaction/summarizer";
import { offers, type WriteAction, whyNotOffered } from "../core/session/capabilities";
import type { FormatCompaction, FormatWriter } from "../core/session/session-format";
import type { SessionReader } from "../core/session/session-reader";
import { getApiKey } from "./api-key";
import { buildPreview } from "../core/context/preview";
import { type ContextFormat, type ContextPreviewProvider, PREVIEW_SCHEME, type PreviewResult } from "./context-preview";
import type { Log } from "./log";
import { readSettings } from "./settings";

export interface ActionDeps {
  log: Log;
  secrets: vscode.SecretStorage;
  previews: ContextPreviewProvider;
  /** The two sides of context comparisons. */
  diffs: ContextPreviewProvider;
  /** The session an open panel holds (fresh), or a newly loaded one. */
  session(file: string): Promise<SessionReader>;
  /** Opens (or focuses) the explorer on a session; with an entry id, that entry is selected and shown. */
  openSession(uri: vscode.Uri, entryId?: string): Promise<void>;
}

export function requireTrust(what: string): void {
  if (!vscode.workspace.isTrusted) throw new Error(`${what} writes to session files and needs a trusted workspace.`);
}

/**
 * The session a write applies to, when its format offers the action and has the hook
 * for it (`has`); any other format is refused by name, with its own reason.
 */
async function writableFor(deps: ActionDeps, file: string, what: string, action: WriteAction, has: (w: FormatWriter) => boolean): Promise<{ s: SessionReader; writer: FormatWriter; agent: string }> {
  const s = await deps.session(file);
  const f = s.format;
  if (!f.writer || !offers(f, action) || !has(f.writer)) throw new Error(`${what} is not offered for ${f.agent} sessions: ${whyNotOffered(f, action)}.`);
  return { s, writer: f.writer, agent: f.agent };
}

/** The write action each refusal speaks of. */
const ACTION_OF: Record<string, WriteAction> = { Label: "label", "Continue From Entry": "continue", Compaction: "compact" };

/** A session whose format offers the write `what` names ("Compaction", "Label"), or its refusal by name. */
export async function writableSession(deps: ActionDeps, file: string, what: string): Promise<SessionReader> {
  const action = ACTION_OF[what] ?? "label";
  const hook: Record<WriteAction, (w: FormatWriter) => boolean> = { label: (w) => !!w.label, continue: (w) => !!w.continueFrom, compact: (w) => !!w.compaction, fork: () => true };
  return (await writableFor(deps, file, what, action, hook[action])).s;
}

/** The name src/extension/commands.ts still imports (its owner renames it): every format goes through writableSession. */
export const piSession = writableSession;

/** The leaf a command acts on: the one asked for, else the format's own default leaf (the one rule per format). */
export function leafOf(s: SessionReader, leafId: string | undefined): number {
  return leafId === undefined ? s.format.defaultLeaf(s) : s.requireIndex(leafId);
}

/** Fork at an entry: a new session file the agent can resume (written as the agent writes one). Returns its path. */
export async function forkAt(deps: ActionDeps, file: string, entryId: string): Promise<string> {
  requireTrust("Fork");
  const s = await deps.session(file);
  const f = s.format;
  if (!f.writer?.capabilities.fork) throw new Error(`Fork is not offered for ${f.agent} sessions: ${whyNotOffered(f, "fork")}.`);
  const res = f.writer.fork(s, entryId);
  deps.log.info(`forked ${file} at ${entryId} -> ${res.path}`);
  return res.path;
}

/** Label an entry (an empty label clears it), appended as the agent labels (pi's /label). */
export async function labelAt(deps: ActionDeps, file: string, entryId: string, label: string): Promise<string> {
  requireTrust("Label");
  const { s, writer } = await writableFor(deps, file, "Label", "label", (w) => !!w.label);
  s.requireIndex(entryId);
  const id = await (writer.label as NonNullable<FormatWriter["label"]>)(s, entryId, label.trim() || undefined);
  deps.log.info(`labelled ${entryId} in ${file}: ${label.trim() || "(cleared)"}`);
  return id;
}

function llmOptions(key: string, model?: string): LlmOptions {
  const st = readSettings();
  return {
    apiKey: key,
    baseURL: st.anthropicBaseUrl || process.env.ANTHROPIC_BASE_URL || undefined,
    model: model || st.summaryModel || undefined,
    budgets: { totalMs: st.summaryTimeoutSeconds * 1000 },
  };
}

type Progress = vscode.Progress<{ message?: string }>;

/** Progress for the notification (what is happening, "waited N s of M s"); SDK notices go to the log, not a popup. */
function summaryProgress(deps: ActionDeps, progress: Progress | undefined): (p: SummaryStatusEvent) => void {
  const status = summaryStatus();
  const noted = new Set<string>();
  return (p) => {
    if (p.type === "warning") {
      if (!noted.has(p.message)) deps.log.warn(`Anthropic SDK: ${p.message}`);
      noted.add(p.message);
      return;
    }
    const message = status(p);
    if (message !== undefined) progress?.report({ message });
  };
}

/** Continue from an earlier entry: as the agent moves its leaf (pi's /tree: a branch_summary at it), optionally summarized. */
export async function continueAt(deps: ActionDeps, file: string, entryId: string, summarize: boolean, token?: vscode.CancellationToken, progress?: Progress): Promise<string> {
  requireTrust("Continue From Entry");
  const { s, writer } = await writableFor(deps, file, "Continue From Entry", "continue", (w) => !!w.continueFrom);
  const key = summarize ? await getApiKey(deps.secrets) : undefined;
  if (summarize && !key) throw new Error("No Anthropic API key: run 'Agent Sessions: Set Anthropic API Key' first.");
  const abort = new AbortController();
  token?.onCancellationRequested(() => abort.abort());
  const st = readSettings();
  const out = await (writer.continueFrom as NonNullable<FormatWriter["continueFrom"]>)(s, entryId, {
    summarize,
    llm: key ? llmOptions(key) : undefined,
    signal: abort.signal,
    reserveTokens: st.reserveTokens,
    windows: st.contextWindows,
    onProgress: summaryProgress(deps, progress),
  });
  deps.log.info(`continued ${file} from ${entryId} (entry ${out.entryId}${out.summarized ? ", summarized" : ""})`);
  return out.entryId;
}

export interface CompactArgs {
  leafId?: string;
  strategy?: CompactionStrategy;
  instructions?: string;
  dryRun?: boolean;
  model?: string;
  allowFallback?: boolean;
}

/** A session's compaction (every format's, through its writer), or the refusal naming its format. */
async function compactionFor(deps: ActionDeps, file: string): Promise<{ s: SessionReader; compaction: FormatCompaction; agent: string }> {
  const got = await writableFor(deps, file, "Compaction", "compact", (w) => !!w.compaction);
  return { s: got.s, compaction: got.writer.compaction as FormatCompaction, agent: got.agent };
}

/** The plan options from the request and the settings (pi's settings.json names; a format without strategies ignores them). */
function planOptions(args: CompactArgs) {
  const st = readSettings();
  return {
    strategy: args.strategy,
    model: args.model || st.summaryModel || undefined,
    settings: { reserveTokens: st.reserveTokens, keepRecentTokens: st.keepRecentTokens },
    project: projectFolders(),
  };
}

/** The plan of a compaction with strategies (cut, kept, summarized): the plan-first dialog shows it. */
export function compactionPlan(s: SessionReader, args: CompactArgs): CompactionPlan {
  const f = s.format;
  const plan = f.writer?.compaction?.plan;
  if (!plan) throw new Error(`${f.agent} sessions are compacted their agent's one way: there is no plan by strategy (${whyNotOffered(f, "compact")}).`);
  return plan(s, leafOf(s, args.leafId), planOptions(args));
}

/**
 * The one compaction path, for every format: its dry run (nothing written), or its
 * summary and append with progress and cancel.
 */
export async function compact(deps: ActionDeps, file: string, args: CompactArgs, progress?: Progress, token?: vscode.CancellationToken): Promise<CompactionPlan | CompactionOutcome | { lines: string[]; nothingToDo: boolean }> {
  const { s, compaction, agent } = await compactionFor(deps, file);
  if (args.dryRun) return compaction.plan ? compactionPlan(s, args) : compaction.dryRun(s, leafOf(s, args.leafId), planOptions(args));
  requireTrust("Compact");
  const paid = strategyCallsModel(args.strategy ?? compaction.strategies?.[0] ?? "summarize");
  const key = paid ? await getApiKey(deps.secrets) : "";
  if (paid && !key) throw new Error(`No Anthropic API key: run 'Agent Sessions: Set Anthropic API Key' first${compaction.strategies?.includes("truncate") ? " (or choose the truncate strategy)" : ""}.`);
  const abort = new AbortController();
  token?.onCancellationRequested(() => abort.abort());
  const show = summaryProgress(deps, progress);
  const out = await compaction.run(s, leafOf(s, args.leafId), {
    ...planOptions(args),
    customInstructions: args.instructions,
    llm: key ? llmOptions(key, args.model) : undefined,
    allowFallback: args.allowFallback ?? readSettings().allowTruncateFallback,
    signal: abort.signal,
    onProgress: (p) => {
      if (p.type === "fallback") {
        deps.log.warn(`compaction of ${file}: the summary failed (${p.reason}); ${compaction.fallbackNote}`);
        progress?.report({ message: `the summary failed; ${compaction.fallbackNote}` });
      } else show(p);
    },
  });
  deps.log.info(`compacted ${file} (${agent}): entry ${out.entryId}, ${out.strategy}${out.fallbackReason ? " (fallback)" : ""}, tokens ${out.tokensBefore} -> ${out.tokensAfter}; ${out.lines.join("; ")}`);
  return out;
}

export { NothingToCompactError, STRATEGIES };

/** The workspace folders: a compaction reads files into its prompt only inside them (a session's cwd is untrusted). */
export function projectFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
}

/**
 * A session whose format compacts its agent's one way (no strategies to choose), with
 * that compaction: the palette shows its dry run. Undefined for a format with
 * strategies (the plan-first strategy picker); a format without compaction is refused.
 */
export async function formatCompaction(deps: ActionDeps, file: string): Promise<{ s: SessionReader; compaction: FormatCompaction; agent: string } | undefined> {
  const got = await compactionFor(deps, file);
  return got.compaction.strategies ? undefined : got;
}

/** The same path without a strategy: the format's one way, what was written as lines. */
export async function compactOtherFormat(deps: ActionDeps, file: string, leafId: string | undefined, instructions: string | undefined, progress?: Progress, token?: vscode.CancellationToken): Promise<CompactionOutcome> {
  return (await compact(deps, file, { leafId, instructions }, progress, token)) as CompactionOutcome;
}

/**
 * Opens the exact request for a leaf in a read-only editor. For a format whose agent
 * shrinks its context itself (seed-000's truncate/compress/smart), `strategy` picks one
 * ("none": the context as recorded); left out, the user is asked.
 */
export async function previewContext(deps: ActionDeps, file: string, leafId: string | undefined, format: ContextFormat | undefined, strategy?: string): Promise<PreviewResult | undefined> {
  const s = await deps.session(file);
  const fmt = format ?? readSettings().defaultContextFormat;
  const strategies = s.format.strategies;
  let chosen = strategy === "none" ? undefined : strategy;
  if (strategy === undefined && strategies) {
    const pick = await vscode.window.showQuickPick(
      [{ label: "As recorded", value: undefined as string | undefined, description: "the context before the agent shrinks it" }, ...strategies.names.map((n) => ({ label: n, value: n as string | undefined, description: "dry run: which messages the agent keeps (nothing is called)" }))],
      { title: "Preview the context: as recorded, or after one of the agent's strategies" },
    );
    if (!pick) return undefined;
    chosen = pick.value;
  }
  const built = buildPreview(s, leafId, fmt, undefined, chosen);
  const name = `${file.split(/[\\/]/).pop()}-${leafId ?? "leaf"}${chosen ? `.${chosen}` : ""}.${fmt}.jsonc`;
  const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${name}`, query: `t=${Date.now()}` });
  deps.previews.set(uri, built.text);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, "jsonc");
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
  return { uri, request: built.request, tokens: built.tokens };
}
