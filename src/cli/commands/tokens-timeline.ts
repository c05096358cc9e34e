import { shownField } from "../../core/util/visible-text";
import type { StepComposition } from "../../core/usage/step-composition";
import { type ContextTimeline, contextTimeline } from "../../core/usage/timeline";
import { TOKEN_KINDS } from "../../core/tokens/token-vocabulary";
import { CliError, type CliIO } from "../cli-error";
import { humanTokens } from "../format";
import { loadSession, reportProblems, requireEntry } from "../load";

/** Columns of the bar that stands for the whole context window. */
const BAR_WIDTH = 40;

/** The stable JSON of `ase tokens --timeline --json` (README.md, "Context timeline"); only ever extended. */
export function timelineJson(t: ContextTimeline): unknown {
  return {
    leafId: t.leafId,
    model: t.model ?? null,
    window: t.window,
    threshold: t.threshold,
    // composition: the estimated split of `tokens` by kind, "system" first (docs/tokens.md).
    points: t.points.map((p) => ({ entryId: p.entryId, time: p.time, tokens: p.tokens, source: p.source, composition: orderedComposition(p.composition) })),
    compactions: t.compactions.map((c) => ({ entryId: c.entryId, before: c.before, after: c.after })),
  };
}

/** The parts in the bars' order (what is sent first: the system prompt and tools, then the messages), only those above 0. */
function orderedComposition(c: StepComposition): StepComposition {
  const out: StepComposition = {};
  for (const k of ["system", ...TOKEN_KINDS.filter((x) => x !== "system")] as const) if ((c[k] ?? 0) > 0) out[k] = c[k];
  return out;
}

/** `#` scaled to the window; a context past the window ends in `+`. */
export function timelineBar(tokens: number, window: number): string {
  if (window <= 0) return "";
  const n = Math.round((Math.max(0, tokens) / window) * BAR_WIDTH);
  return n > BAR_WIDTH ? `${"#".repeat(BAR_WIDTH)}+` : "#".repeat(n);
}

/** One line per step and per compaction, in path order, then the threshold and window. */
export function timelineText(t: ContextTimeline, path: string, agent: string): string {
  const out = [`${shownField(path)}  (${shownField(agent)} session, leaf ${t.leafId === null ? "(none)" : shownField(t.leafId)}, model ${t.model ? shownField(t.model) : "unknown"})`];
  if (!t.points.length) out.push("  no assistant steps on this path");
  else out.push(`${"step".padStart(5)}  ${"time".padEnd(24)}  ${"entry".padEnd(12)}  ${"tokens".padStart(7)}  ${"source".padEnd(9)}  window ${humanTokens(t.window)} = ${BAR_WIDTH} #`);
  const rows: Array<{ at: number; line: string }> = [];
  t.points.forEach((p, k) => {
    const line = `${String(k + 1).padStart(5)}  ${(p.time ?? "-").padEnd(24)}  ${shownField(p.entryId).padEnd(12)}  ${humanTokens(p.tokens).padStart(7)}  ${p.source.padEnd(9)}  ${timelineBar(p.tokens, t.window)}`;
    rows.push({ at: p.index, line });
  });
  for (const c of t.compactions) {
    const how = c.beforeSource === c.afterSource ? c.beforeSource : `${c.beforeSource} -> ${c.afterSource}`;
    rows.push({ at: c.index, line: `       compacted ${humanTokens(c.before)} -> ${humanTokens(c.after)} at ${shownField(c.entryId)}${c.time ? ` (${c.time})` : ""}  [${how}]` });
  }
  rows.sort((a, b) => a.at - b.at);
  for (const r of rows) out.push(r.line);
  out.push(`threshold ${humanTokens(t.threshold)} (the agent compacts above it)`, `window    ${humanTokens(t.window)}`);
  return `${out.join("\n")}\n`;
}

/** Flags that make no sense with --timeline: pi's token machinery (tokenizer, calibration, budget). */
const NOT_WITH_TIMELINE = ["exact", "anthropic-count", "accuracy", "system", "reserve", "budget", "allocation", "no-cache"] as const;

/** `ase tokens FILE --timeline`: the context size at every assistant step of a path, any format. */
export async function runTimeline(path: string, values: Record<string, unknown>, window: number | undefined, io: CliIO): Promise<void> {
  const given = NOT_WITH_TIMELINE.find((f) => values[f] !== undefined && values[f] !== false);
  if (given) throw new CliError(`--timeline cannot be combined with --${given} (that flag reads pi's own token machinery); use --leaf, --window and --json`);
  const session = await loadSession(path);
  const leaf = requireEntry(session, values.leaf as string | undefined, "leaf");
  reportProblems(session, io.err);
  const t = contextTimeline(session, leaf, { windows: window !== undefined ? { "": window } : undefined });
  io.out(values.json ? `${JSON.stringify(timelineJson(t), null, 2)}\n` : timelineText(t, session.path, session.format.agent));
}
