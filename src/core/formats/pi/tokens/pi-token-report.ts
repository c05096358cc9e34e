import type { FormatTokenReport, TokenReportRequest } from "../../../session/session-format";
import type { SystemPrompt } from "../../../session/system-prompt";
import { COUNT_ORDER, type KindCounts, type TokenKind } from "../../../tokens/kind-counts";
import { humanTokens } from "../../../util/human";
import { shownField } from "../../../util/visible-text";
import { renderAnthropic } from "../context/render-anthropic";
import { BUDGET_PARTS, type BudgetAllocation } from "../context/budget";
import { asPi } from "../pi-session";
import type { AccuracyReport } from "./accuracy";
import { type AnthropicCount, countWithAnthropic } from "./anthropic-count";
import type { Fit } from "./calibration";
import { type TokenReport, tokenReport } from "./token-report";

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

function reportText(r: TokenReport, path: string, system: SystemPrompt | undefined): string {
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

/**
 * pi's token report for `ase tokens`: per entry, branch and leaf (recorded, estimated,
 * tokenizer, calibrated), the budget, or the accuracy of each method; optionally the
 * Messages API's own count of the context.
 */
export const piTokenReport: FormatTokenReport = {
  budgetParts: BUDGET_PARTS,
  async run(session, req: TokenReportRequest) {
    const pi = asPi(session);
    const system = req.system;
    const report = await tokenReport(pi, {
      leafId: req.leaf >= 0 ? pi.metas[req.leaf].id : undefined,
      exact: req.exact,
      accuracy: req.accuracy,
      cachePath: req.cachePath,
      system,
      allocation: req.allocation as BudgetAllocation | undefined,
      budgetTotal: req.budgetTotal,
      reserveTokens: req.reserveTokens,
      windows: req.windows,
    });
    if (req.accuracy) {
      const a = report.accuracy as AccuracyReport;
      if (!a.steps) return { refused: `${shownField(pi.path)}: no consecutive calls with recorded usage; nothing to grade against` };
      return { out: req.json ? `${JSON.stringify(a, null, 2)}\n` : accuracyText(a) };
    }
    let anthropic: AnthropicCount | undefined;
    if (req.anthropicCount) {
      const { body } = renderAnthropic(report.context, { system: system?.text });
      try {
        anthropic = await countWithAnthropic(body, req.anthropicCount);
      } catch (err) {
        return { refused: `count-tokens request failed: ${(err as Error).message.split("\n")[0]}` };
      }
    }
    if (req.json) {
      const json = tokensJson(report, system) as Record<string, unknown>;
      if (anthropic) json.anthropicCount = anthropic;
      return { out: `${JSON.stringify(json, null, 2)}\n` };
    }
    const counted = anthropic ? `anthropic count-tokens (${shownField(anthropic.model)}): ${anthropic.inputTokens} input tokens for this context${anthropic.cached ? " (cached)" : ""}; pi's rule said ${report.leaf.contextTokens}\n` : "";
    return { out: reportText(report, pi.path, system) + counted };
  },
};
