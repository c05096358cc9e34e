import { shownField } from "../../core/util/visible-text";
import { homedir } from "node:os";
import { join } from "node:path";
import { BUDGET_PARTS, type BudgetAllocation } from "../../core/formats/pi/context/budget";
import { resolveSystemPrompt, type SystemPrompt } from "../../core/formats/pi/context/system-prompt";
import { Session } from "../../core/formats/pi/pi-session";
import { formatOf } from "../../core/formats/registry";
import type { SessionReader } from "../../core/formats/session-reader";
import { leafTokenSummary } from "../../core/tokens/format-tokens";
import type { AccuracyReport } from "../../core/formats/pi/tokens/accuracy";
import type { Fit } from "../../core/formats/pi/tokens/calibration";
import { tokenCacheFile } from "../../core/tokens/token-cache";
import { COUNT_ORDER, type KindCounts, type TokenKind } from "../../core/tokens/kind-counts";
import { type TokenReport, tokenReport } from "../../core/formats/pi/tokens/token-report";
import { type AnthropicCount, countWithAnthropic } from "../../core/formats/pi/tokens/anthropic-count";
import { renderAnthropic } from "../../core/formats/pi/context/render-anthropic";
import { intFlag, onePositional, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";
import { humanTokens } from "../format";
import { loadSession, reportProblems, requireEntry } from "../load";
import { runTimeline } from "./tokens-timeline";
import { unreadableUsage, unreadableUsageLine } from "../../core/tokens/unreadable-usage";

const usage =
  "ase tokens <file> [--leaf ID] [--exact] [--anthropic-count] [--json] [--accuracy] [--system auto|FILE] [--reserve N] [--window N] [--budget N] [--allocation S,Su,I,R,C] [--no-cache] | --timeline [--leaf ID] [--window N] [--json]";

/** $XDG_CACHE_HOME/agent-session-explorer/tokens, else ~/.cache/agent-session-explorer/tokens. */
export function tokenCacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(base, "agent-session-explorer", "tokens");
}

function parseAllocation(value: string | undefined): BudgetAllocation | undefined {
  if (value === undefined) return undefined;
  const nums = value.split(",").map((s) => Number(s.trim()));
  if (nums.length !== BUDGET_PARTS.length || nums.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new CliError(`--allocation expects ${BUDGET_PARTS.length} percentages (${BUDGET_PARTS.join(",")}), got "${value}"`);
  }
  const sum = nums.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 100) > 0.01) throw new CliError(`--allocation percentages must sum to 100, got ${sum}`);
  return Object.fromEntries(BUDGET_PARTS.map((k, i) => [k, nums[i]])) as BudgetAllocation;
}

/**
 * `ase tokens --json` named its per-kind keys before the one vocabulary existed; its JSON
 * is only ever extended, so those names stay there.
 */
const JSON_KIND_NAMES: Record<Exclude<TokenKind, "system">, string> = { user: "user", assistant: "assistantText", thinking: "thinking", toolCall: "toolCalls", toolResult: "toolResults", image: "images", summary: "summaries", custom: "custom", bash: "bash" };

function jsonKinds(c: KindCounts): Record<string, number> {
  return Object.fromEntries(COUNT_ORDER.map((k) => [JSON_KIND_NAMES[k], c[k]]));
}

/** The stable JSON interface of `ase tokens --json` (documented in the issue; only ever extended). */
export function tokensJson(r: TokenReport, system: SystemPrompt | undefined): unknown {
  return {
    leafId: r.leaf.leafId,
    contextTokens: r.leaf.contextTokens,
    contextWindow: r.leaf.contextWindow,
    threshold: r.leaf.threshold,
    wouldCompact: r.leaf.wouldCompact,
    model: r.leaf.model,
    reserveTokens: r.leaf.reserveTokens,
    windowSource: r.leaf.windowSource,
    recordedPart: r.leaf.recorded,
    estimatedPart: r.leaf.estimated,
    tokenizer: r.tokenizer ?? null,
    calibration: r.calibration,
    entries: r.entries.map((e) => ({
      id: e.id,
      kind: e.kind,
      ...(e.recorded ? { recorded: { input: e.recorded.input, output: e.recorded.output, cacheRead: e.recorded.cacheRead, cacheWrite: e.recorded.cacheWrite } } : {}),
      estimate: e.estimate,
      ...(e.exact !== undefined ? { exact: e.exact } : {}),
      ...(e.calibrated !== undefined ? { calibrated: e.calibrated } : {}),
    })),
    branches: r.branches.map((b) => ({ leafId: b.leafId, fromId: b.fromId, entries: b.entries, tokens: b.tokens, byKind: jsonKinds(b.byKind), path: b.path })),
    budget: {
      total: r.budget.total,
      contextTokens: r.budget.contextTokens,
      systemSource: r.budget.systemSource,
      overflowing: r.budget.overflowing,
      parts: r.budget.parts.map((p) => ({ name: p.name, allocated: p.allocated, used: p.used, measured: p.measured, overflow: p.overflow })),
    },
    ...(system ? { system: { reconstructed: system.reconstructed, tokens: r.systemTokens, files: system.parts.map((p) => ({ source: p.source, path: p.path })), notes: system.notes } } : {}),
  };
}

function fitText(f: Fit | undefined): string {
  return f ? `x${f.factor.toFixed(3)} + ${f.perEntry}/entry` : "n/a";
}

function pct(x: number): string {
  return Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : "n/a";
}

export function accuracyText(a: AccuracyReport): string {
  const lines = [
    `growth steps: ${a.steps} (fit on ${a.fitSteps}, tested on ${a.testSteps}); corrections fitted on the fit half: tokenizer ${fitText(a.exactFit)}, estimate ${fitText(a.estimateFit)}`,
    `${"method".padEnd(20)} ${"median".padStart(8)} ${"p90".padStart(8)} ${"bias".padStart(8)} ${"n".padStart(5)}`,
    ...a.methods.map((m) => `${m.method.padEnd(20)} ${pct(m.median).padStart(8)} ${pct(m.p90).padStart(8)} ${pct(m.bias).padStart(8)} ${String(m.n).padStart(5)}`),
  ];
  return `${lines.join("\n")}\n`;
}

function text(r: TokenReport, path: string, system: SystemPrompt | undefined): string {
  const l = r.leaf;
  const out: string[] = [];
  out.push(`${shownField(path)}  leaf ${l.leafId !== null && l.leafId !== undefined ? shownField(l.leafId) : "(none)"}  model ${l.model ? shownField(`${l.model.provider}/${l.model.modelId}`) : "unknown"}`);
  out.push(`context: ${l.contextTokens} tokens (recorded ${l.recorded} + estimated ${l.estimated}; pi's rule)`);
  out.push(`window ${l.contextWindow} (${l.windowSource}) - reserve ${l.reserveTokens} = threshold ${l.threshold}: ${l.wouldCompact ? "pi WOULD auto-compact" : "below the threshold"}`);
  const c = r.calibration;
  out.push(`calibration (${c.steps} growth steps${c.fitted ? "" : ", none usable: factors 1"}): estimate ${fitText(c.estimate)}${c.exact ? `, tokenizer ${fitText(c.exact)}` : ""}${r.tokenizer ? `  [tokenizer ${r.tokenizer}; for Claude an approximation]` : ""}`);
  if (system) out.push(`system prompt: ${r.systemTokens} tokens, ${system.reconstructed ? "RECONSTRUCTED" : "from file"}: ${system.parts.map((p) => shownField(p.path)).join(", ") || "(no files)"}`);
  out.push("", `budget (total ${r.budget.total}; system: ${r.budget.systemSource}):`);
  for (const p of r.budget.parts) {
    out.push(`  ${p.name.padEnd(9)} allocated ${String(p.allocated).padStart(8)}  used ${String(p.used).padStart(8)}${p.overflow ? `  OVER by ${p.overflow}` : ""}`);
  }
  out.push("", `branches (${r.branches.length}):`);
  for (const b of r.branches) {
    const kinds = COUNT_ORDER.filter((k) => b.byKind[k]).map((k) => `${k} ${humanTokens(b.byKind[k])}`).join(", ");
    out.push(`  ${shownField(b.leafId)} from ${b.fromId ? shownField(b.fromId) : "root"}: ${b.entries} entries, ${b.tokens} tokens (path ${b.path.tokens})  ${kinds}`);
  }
  out.push("", `entries (${r.entries.length}): id kind recorded(in+cacheRead+cacheWrite/out) estimate exact calibrated`);
  for (const e of r.entries) {
    const rec = e.recorded ? `${e.recorded.input + e.recorded.cacheRead + e.recorded.cacheWrite}/${e.recorded.output}` : "-";
    out.push(`  ${shownField(e.id)} ${e.kind.padEnd(16)} ${rec.padStart(14)} ${String(e.estimate).padStart(7)} ${String(e.exact ?? "-").padStart(7)} ${String(e.calibrated ?? "-").padStart(7)}`);
  }
  return `${out.join("\n")}\n`;
}

/** `--system auto|FILE` for any command: auto = reconstructed from the session's cwd and pi's agent dir. */
export function systemPromptFor(spec: string | undefined, session: Session, env: NodeJS.ProcessEnv): SystemPrompt | undefined {
  if (spec === undefined) return undefined;
  try {
    return resolveSystemPrompt(spec, session.header.cwd, env);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

async function run(args: string[], io: CliIO): Promise<void> {
  const { values, positionals } = parseFlags(
    args,
    {
      leaf: { type: "string" },
      exact: { type: "boolean" },
      json: { type: "boolean" },
      accuracy: { type: "boolean" },
      system: { type: "string" },
      reserve: { type: "string" },
      window: { type: "string" },
      budget: { type: "string" },
      allocation: { type: "string" },
      "no-cache": { type: "boolean" },
      "anthropic-count": { type: "boolean" },
      timeline: { type: "boolean" },
    },
    usage,
  );
  if (values.timeline) return runTimeline(onePositional(positionals, "session file", usage), values, intFlag(values.window, "window"), io);
  const apiKey = io.env.ANTHROPIC_API_KEY;
  if (values["anthropic-count"] && !apiKey) throw new CliError("--anthropic-count needs ANTHROPIC_API_KEY (the count is a request to the Messages API)");
  const reserveTokens = intFlag(values.reserve, "reserve");
  const window = intFlag(values.window, "window");
  const budgetTotal = intFlag(values.budget, "budget");
  const allocation = parseAllocation(values.allocation);
  const path = onePositional(positionals, "session file", usage);
  const loaded = await loadSession(path);
  if (!(loaded instanceof Session)) return otherTokens(loaded, values, window, io);
  const session = loaded;
  const leaf = requireEntry(session, values.leaf, "leaf");
  const system = systemPromptFor(values.system, session, io.env);
  reportProblems(session, io.err);
  noteUnreadableUsage(session, io);
  const report = await tokenReport(session, {
    leafId: leaf >= 0 ? session.metas[leaf].id : undefined,
    exact: values.exact,
    accuracy: values.accuracy,
    cachePath: values["no-cache"] ? undefined : tokenCacheFile(tokenCacheDir(io.env), session.path),
    system,
    allocation,
    budgetTotal,
    reserveTokens,
    // --window applies to whatever model the leaf uses: an empty prefix matches every id.
    windows: window !== undefined ? { "": window } : undefined,
  });
  if (values.accuracy) {
    const a = report.accuracy as AccuracyReport;
    if (!a.steps) throw new CliError(`${shownField(session.path)}: no consecutive calls with recorded usage; nothing to grade against`);
    io.out(values.json ? `${JSON.stringify(a, null, 2)}\n` : accuracyText(a));
    return;
  }
  let anthropic: AnthropicCount | undefined;
  if (values["anthropic-count"]) {
    const { body } = renderAnthropic(report.context, { system: system?.text });
    try {
      anthropic = await countWithAnthropic(body, {
        apiKey: apiKey as string,
        baseURL: io.env.ANTHROPIC_BASE_URL || undefined,
        cachePath: values["no-cache"] ? undefined : join(tokenCacheDir(io.env), "anthropic-counts.json"),
      });
    } catch (err) {
      throw new CliError(`count-tokens request failed: ${(err as Error).message.split("\n")[0]}`);
    }
  }
  if (values.json) {
    const json = tokensJson(report, system) as Record<string, unknown>;
    if (anthropic) json.anthropicCount = anthropic;
    io.out(`${JSON.stringify(json, null, 2)}\n`);
    return;
  }
  io.out(text(report, session.path, system));
  if (anthropic) io.out(`anthropic count-tokens (${shownField(anthropic.model)}): ${anthropic.inputTokens} input tokens for this context${anthropic.cached ? " (cached)" : ""}; pi's rule said ${report.leaf.contextTokens}\n`);
}

/** Usage left out because a figure could not be believed (-5, 1e308, "NaN"): said on stderr, JSON on stdout stays as it was. */
function noteUnreadableUsage(session: SessionReader, io: CliIO): void {
  const note = unreadableUsageLine(unreadableUsage(session));
  if (note) io.err(`note: ${shownField(note)}\n`);
}

/** Flags that read pi's own token machinery (tokenizer, calibration, budget); other formats get recorded usage and estimates. */
const PI_ONLY = ["exact", "anthropic-count", "accuracy", "system", "reserve", "budget", "allocation"] as const;

/** Tokens of a session of another format: the leaf's context size, recorded and estimated, by kind. */
function otherTokens(session: SessionReader, values: Record<string, unknown>, window: number | undefined, io: CliIO): void {
  const format = formatOf(session);
  const given = PI_ONLY.find((f) => values[f] !== undefined && values[f] !== false);
  if (given) throw new CliError(`--${given} is for pi sessions; ${session.path} is a ${format.agent} session (its tokens: recorded usage and estimates)`);
  const leaf = requireEntry(session, values.leaf as string | undefined, "leaf");
  reportProblems(session, io.err);
  noteUnreadableUsage(session, io);
  const t = leafTokenSummary(session, format, leaf, { windows: window !== undefined ? { "": window } : undefined });
  if (values.json) {
    io.out(`${JSON.stringify({ format: format.id, ...t }, null, 2)}\n`);
    return;
  }
  const lines = [
    `${shownField(session.path)}  (${shownField(format.agent)} session, leaf ${t.leafId === null ? "(none)" : shownField(t.leafId)})`,
    `context: ${humanTokens(t.contextTokens)} tokens of a ${humanTokens(t.contextWindow)} window${t.model ? ` (${shownField(t.model)})` : ""}; compacts above ${humanTokens(t.threshold)}${t.wouldCompact ? "  ← over" : ""}`,
    t.recordedAt !== undefined ? `  recorded ${humanTokens(t.recordedPart)} at ${shownField(t.recordedAt)}, estimated ${humanTokens(t.estimatedPart)} after it` : `  estimated (no recorded usage in this context)`,
    ...(t.overhead ? [`  unrecorded overhead ${humanTokens(t.overhead.tokens)} (estimated): ${shownField(t.overhead.parts)}; recorded input ${humanTokens(t.overhead.recordedInput)} - our estimate ${humanTokens(t.overhead.estimatedMessages)} of the messages sent with it`] : []),
    `by kind (estimated, ${humanTokens(t.estimated)} in all):`,
    ...Object.entries(t.byKind).map(([k, n]) => `  ${k.padEnd(11)} ${humanTokens(n as number)}`),
  ];
  io.out(`${lines.join("\n")}\n`);
}

export const tokensCommand: CliCommand = {
  name: "tokens",
  usage,
  summary: "token figures per entry, branch and leaf: recorded, estimated, tokenizer, calibrated; budget; --accuracy; --timeline: the context size at every step of a path",
  run,
};
