import * as vscode from "vscode";
import { branchSession } from "../core/formats/pi/compaction/branch-summary";
import { compactSession, type CompactionOutcome } from "../core/formats/pi/compaction/compact";
import { type CompactionPlan, NothingToCompactError, planCompaction } from "../core/formats/pi/compaction/prepare";
import { type SummaryStatusEvent, summaryStatus } from "../core/compaction/progress-text";
import { type CompactionStrategy, STRATEGIES } from "../core/formats/pi/compaction/settings";
import type { LlmOptions } from "../core/compaction/summarizer";
import { appendEntry } from "../core/formats/pi/store/append";
import { Session } from "../core/formats/pi/pi-session";
import { type WriteAction, whyNotOffered } from "../core/session/capabilities";
import { formatOf } from "../core/formats/registry";
import type { FormatCompaction } from "../core/session/session-format";
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

/** A session only pi's writers handle (labels, branch summaries, pi's compaction); any other format is refused by name. */
export async function piSession(deps: ActionDeps, file: string, what: string): Promise<Session> {
  const s = await deps.session(file);
  if (s instanceof Session) return s;
  const f = formatOf(s);
  throw new Error(`${what} is not offered for ${f.agent} sessions: ${whyNotOffered(f, ACTION_OF[what] ?? "label")}.`);
}

/** The write action each refusal speaks of. */
const ACTION_OF: Record<string, WriteAction> = { Label: "label", "Continue From Entry": "continue", Compaction: "compact" };

/** Fork at an entry: a new session file the agent can resume (written as the agent writes one). Returns its path. */
export async function forkAt(deps: ActionDeps, file: string, entryId: string): Promise<string> {
  requireTrust("Fork");
  const s = await deps.session(file);
  const f = formatOf(s);
  if (!f.writer?.capabilities.fork) throw new Error(`Fork is not offered for ${f.agent} sessions: ${whyNotOffered(f, "fork")}.`);
  const res = f.writer.fork(s, entryId);
  deps.log.info(`forked ${file} at ${entryId} -> ${res.path}`);
  return res.path;
}

/** Label an entry (an empty label clears it), appended as pi's /label does. */
export async function labelAt(deps: ActionDeps, file: string, entryId: string, label: string): Promise<string> {
  requireTrust("Label");
  const s = await piSession(deps, file, "Label");
  s.requireIndex(entryId);
  const leaf = s.metas.length ? s.metas[s.tree.defaultLeaf].id : null;
  const e = await appendEntry(s, { type: "label", parentId: leaf, targetId: entryId, label: label.trim() || undefined });
  deps.log.info(`labelled ${entryId} in ${file}: ${label.trim() || "(cleared)"}`);
  return e.id;
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

/** Continue from an earlier entry: a branch_summary at it (pi's /tree), optionally summarized. */
export async function continueAt(deps: ActionDeps, file: string, entryId: string, summarize: boolean, token?: vscode.CancellationToken, progress?: Progress): Promise<string> {
  requireTrust("Continue From Entry");
  const s = await piSession(deps, file, "Continue From Entry");
  const key = summarize ? await getApiKey(deps.secrets) : undefined;
  if (summarize && !key) throw new Error("No Anthropic API key: run 'Agent Sessions: Set Anthropic API Key' first.");
  const abort = new AbortController();
  token?.onCancellationRequested(() => abort.abort());
  const st = readSettings();
  const out = await branchSession(s, {
    targetId: entryId,
    summarize,
    llm: key ? llmOptions(key) : undefined,
    signal: abort.signal,
    reserveTokens: st.reserveTokens,
    windows: st.contextWindows,
    onProgress: summaryProgress(deps, progress),
  });
  deps.log.info(`continued ${file} from ${entryId} (branch_summary ${out.entry.id}${out.summarized ? ", summarized" : ""})`);
  return out.entry.id;
}

export interface CompactArgs {
  leafId?: string;
  strategy?: CompactionStrategy;
  instructions?: string;
  dryRun?: boolean;
  model?: string;
  allowFallback?: boolean;
}

export function compactionPlan(s: Session, args: CompactArgs): CompactionPlan {
  const st = readSettings();
  return planCompaction(s, {
    leafId: args.leafId,
    strategy: args.strategy,
    model: args.model || st.summaryModel || undefined,
    settings: { reserveTokens: st.reserveTokens, keepRecentTokens: st.keepRecentTokens },
  });
}

/** Compaction with progress and cancel; dry run returns the plan and writes nothing. */
export async function compact(deps: ActionDeps, file: string, args: CompactArgs, progress?: Progress, token?: vscode.CancellationToken): Promise<CompactionPlan | CompactionOutcome> {
  const s = await piSession(deps, file, "Compaction");
  if (args.dryRun) return compactionPlan(s, args);
  requireTrust("Compact");
  const strategy = args.strategy ?? "summarize";
  const key = strategy === "truncate" ? "" : await getApiKey(deps.secrets);
  if (strategy !== "truncate" && !key) throw new Error("No Anthropic API key: run 'Agent Sessions: Set Anthropic API Key' first (or choose the truncate strategy).");
  const abort = new AbortController();
  token?.onCancellationRequested(() => abort.abort());
  const st = readSettings();
  const out = await compactSession(s, {
    leafId: args.leafId,
    strategy,
    customInstructions: args.instructions,
    model: args.model || st.summaryModel || undefined,
    settings: { reserveTokens: st.reserveTokens, keepRecentTokens: st.keepRecentTokens },
    llm: key ? llmOptions(key, args.model) : undefined,
    allowFallback: args.allowFallback ?? st.allowTruncateFallback,
    signal: abort.signal,
    onProgress: summaryProgress(deps, progress),
  });
  deps.log.info(`compacted ${file}: entry ${out.entry.id}, ${out.strategy}, tokens ${out.tokensBefore} -> ${out.tokensAfter}`);
  return out;
}

export { NothingToCompactError, STRATEGIES };

/** The workspace folders: a compaction reads files into its prompt only inside them (a session's cwd is untrusted). */
export function projectFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
}

/** A session whose format compacts its own way (not pi), with that compaction. */
export async function formatCompaction(deps: ActionDeps, file: string): Promise<{ s: SessionReader; compaction: FormatCompaction; agent: string } | undefined> {
  const s = await deps.session(file);
  if (s instanceof Session) return undefined;
  const f = formatOf(s);
  if (!f.writer?.compaction) throw new Error(`Compaction is not offered for ${f.agent} sessions: ${whyNotOffered(f, "compact")}.`);
  return { s, compaction: f.writer.compaction, agent: f.agent };
}

/** Another format's compaction with progress and cancel: its summary and append, or nothing on failure. */
export async function compactOtherFormat(deps: ActionDeps, file: string, leafId: string | undefined, instructions: string | undefined, progress?: Progress, token?: vscode.CancellationToken): Promise<{ lines: string[]; fallbackReason?: string }> {
  const got = await formatCompaction(deps, file);
  if (!got) throw new Error(`${file}: a pi session (use pi's compaction)`);
  requireTrust("Compact");
  const key = await getApiKey(deps.secrets);
  if (!key) throw new Error("No Anthropic API key: run 'Agent Sessions: Set Anthropic API Key' first.");
  const leaf = leafId === undefined ? formatOf(got.s).defaultLeaf(got.s) : got.s.requireIndex(leafId);
  const abort = new AbortController();
  token?.onCancellationRequested(() => abort.abort());
  const show = summaryProgress(deps, progress);
  const out = await got.compaction.run(got.s, leaf, {
    llm: llmOptions(key),
    customInstructions: instructions,
    signal: abort.signal,
    project: projectFolders(),
    onProgress: (p) => {
      if (p.type === "fallback") {
        deps.log.warn(`compaction of ${file}: the summary failed (${p.reason}); ${got.compaction.fallbackNote}`);
        progress?.report({ message: `the summary failed; ${got.compaction.fallbackNote}` });
      } else show(p);
    },
  });
  deps.log.info(`compacted ${file} (${got.agent}): ${out.lines.join("; ")}`);
  return out;
}

/**
 * Opens the exact request for a leaf in a read-only editor. For a format whose agent
 * shrinks its context itself (seed-000's truncate/compress/smart), `strategy` picks one
 * ("none": the context as recorded); left out, the user is asked.
 */
export async function previewContext(deps: ActionDeps, file: string, leafId: string | undefined, format: ContextFormat | undefined, strategy?: string): Promise<PreviewResult | undefined> {
  const s = await deps.session(file);
  const fmt = format ?? readSettings().defaultContextFormat;
  const strategies = formatOf(s).strategies;
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
