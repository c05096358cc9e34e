import { withArticle } from "../../core/util/human";
import { shownField } from "../../core/util/visible-text";
import { homedir } from "node:os";
import { join } from "node:path";
import { resolveSystemPrompt } from "../../core/context/resolve-system";
import type { SystemPrompt } from "../../core/session/system-prompt";
import { FORMATS } from "../../core/formats/registry";
import type { SessionReader } from "../../core/session/session-reader";
import { leafTokenSummary } from "../../core/usage/format-tokens";
import { tokenCacheFile } from "../../core/tokens/token-cache";
import { intFlag, onePositional, parseFlags } from "../args";
import { type CliCommand, CliError, type CliIO } from "../cli-error";
import { humanTokens } from "../format";
import { loadSession, reportProblems, requireEntry } from "../load";
import { runTimeline } from "./tokens-timeline";
import { unreadableUsage, unreadableUsageLine } from "../../core/usage/unreadable-usage";

const usage =
  "ase tokens <file> [--leaf ID] [--exact] [--anthropic-count] [--json] [--accuracy] [--system auto|FILE] [--reserve N] [--window N] [--budget N] [--allocation S,Su,I,R,C] [--no-cache] | --timeline [--leaf ID] [--window N] [--json]";

/** $XDG_CACHE_HOME/agent-session-explorer/tokens, else ~/.cache/agent-session-explorer/tokens. */
export function tokenCacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), ".cache");
  return join(base, "agent-session-explorer", "tokens");
}

/** The formats with a token report of their own (pi's): the flags that read it are theirs. */
const REPORTING = FORMATS.filter((f) => f.tokenReport);

function parseAllocation(value: string | undefined): Record<string, number> | undefined {
  if (value === undefined) return undefined;
  const parts = REPORTING[0]?.tokenReport?.budgetParts ?? [];
  const nums = value.split(",").map((s) => Number(s.trim()));
  if (nums.length !== parts.length || nums.some((n) => !Number.isFinite(n) || n < 0)) {
    throw new CliError(`--allocation expects ${parts.length} percentages (${parts.join(",")}), got "${value}"`);
  }
  const sum = nums.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 100) > 0.01) throw new CliError(`--allocation percentages must sum to 100, got ${sum}`);
  return Object.fromEntries(parts.map((k, i) => [k, nums[i]]));
}

/** `--system auto|FILE` for any command: auto = the agent's prompt rebuilt from its files (its format's rule). */
export function systemPromptFor(spec: string | undefined, session: SessionReader, env: NodeJS.ProcessEnv): SystemPrompt | undefined {
  if (spec === undefined) return undefined;
  try {
    return resolveSystemPrompt(spec, session, env);
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
  const session = await loadSession(path);
  const own = session.format.tokenReport;
  if (!own) return otherTokens(session, values, window, io);
  const leaf = requireEntry(session, values.leaf, "leaf");
  const system = systemPromptFor(values.system, session, io.env);
  reportProblems(session, io.err);
  noteUnreadableUsage(session, io);
  const done = await own.run(session, {
    leaf,
    exact: values.exact,
    accuracy: values.accuracy,
    json: values.json,
    cachePath: values["no-cache"] ? undefined : tokenCacheFile(tokenCacheDir(io.env), session.path),
    system,
    allocation,
    budgetTotal,
    reserveTokens,
    // --window applies to whatever model the leaf uses: an empty prefix matches every id.
    windows: window !== undefined ? { "": window } : undefined,
    anthropicCount: values["anthropic-count"]
      ? { apiKey: apiKey as string, baseURL: io.env.ANTHROPIC_BASE_URL || undefined, cachePath: values["no-cache"] ? undefined : join(tokenCacheDir(io.env), "anthropic-counts.json") }
      : undefined,
  });
  if ("refused" in done) throw new CliError(done.refused);
  io.out(done.out);
}

/** Usage left out because a figure could not be believed (-5, 1e308, "NaN"): said on stderr, JSON on stdout stays as it was. */
function noteUnreadableUsage(session: SessionReader, io: CliIO): void {
  const note = unreadableUsageLine(unreadableUsage(session));
  if (note) io.err(`note: ${shownField(note)}\n`);
}

/** Flags that read a format's own token report (tokenizer, calibration, budget); other formats get recorded usage and estimates. */
const OWN_REPORT_ONLY = ["exact", "anthropic-count", "accuracy", "system", "reserve", "budget", "allocation"] as const;

/** Tokens of a session of another format: the leaf's context size, recorded and estimated, by kind. */
function otherTokens(session: SessionReader, values: Record<string, unknown>, window: number | undefined, io: CliIO): void {
  const format = session.format;
  const given = OWN_REPORT_ONLY.find((f) => values[f] !== undefined && values[f] !== false);
  if (given) throw new CliError(`--${given} is for ${REPORTING.map((f) => f.agent).join(" and ")} sessions; ${session.path} is ${withArticle(format.agent)} session (its tokens: recorded usage and estimates)`);
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
