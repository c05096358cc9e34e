import * as vscode from "vscode";

/** The extension's settings (contributes.configuration, section agentSessions). */
export interface Settings {
  sessionsDirectory: string;
  /** Roots of the other agents' stores by agent id (pi's is sessionsDirectory). */
  agentDirectories: Record<string, string>;
  /** Codex's home (agentSessions.codexHome); empty: $CODEX_HOME, else ~/.codex. */
  codexHome: string;
  summaryModel: string;
  anthropicBaseUrl: string;
  reserveTokens: number;
  keepRecentTokens: number;
  contextWindows: Record<string, number>;
  tokenCounting: "estimate" | "exact";
  defaultContextFormat: "pi" | "anthropic" | "xml";
  allowTruncateFallback: boolean;
  /** Overall budget of one compaction or branch summary, retries included (>= 10). */
  summaryTimeoutSeconds: number;
  /** agentSessions.modelPrices as written: ModelPrices validates it (and warns about bad entries). */
  modelPrices: unknown;
  /** Show each session's cost in the Sessions view (computed lazily, cached). */
  showCost: boolean;
  /** The folder holding Gemini CLI's .gemini (agentSessions.geminiHome); empty: $GEMINI_CLI_HOME, else ~. */
  geminiHome: string;
  /** OpenCode's data folder (agentSessions.opencodeHome); empty: $XDG_DATA_HOME/opencode, else ~/.local/share/opencode. */
  opencodeHome: string;
}

export const MIN_SUMMARY_TIMEOUT_SECONDS = 10;

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration("agentSessions");
  return {
    sessionsDirectory: c.get<string>("sessionsDirectory", ""),
    agentDirectories: stringRecord(c.get<unknown>("agentDirectories", {})),
    codexHome: String(c.get<unknown>("codexHome", "") ?? ""),
    summaryModel: c.get<string>("summaryModel", ""),
    anthropicBaseUrl: c.get<string>("anthropicBaseUrl", ""),
    reserveTokens: c.get<number>("reserveTokens", 16384),
    keepRecentTokens: c.get<number>("keepRecentTokens", 20000),
    contextWindows: c.get<Record<string, number>>("contextWindows", {}),
    tokenCounting: c.get<"estimate" | "exact">("tokenCounting", "estimate"),
    defaultContextFormat: c.get<"pi" | "anthropic" | "xml">("defaultContextFormat", "anthropic"),
    allowTruncateFallback: c.get<boolean>("allowTruncateFallback", false),
    summaryTimeoutSeconds: timeoutSeconds(c.get<unknown>("summaryTimeoutSeconds", 300)),
    modelPrices: c.get<unknown>("modelPrices", {}),
    showCost: c.get<unknown>("showCost", false) === true,
    geminiHome: String(c.get<unknown>("geminiHome", "") ?? ""),
    opencodeHome: String(c.get<unknown>("opencodeHome", "") ?? ""),
  };
}

/** settings.json is not checked against the schema's minimum: a hand-written 0 or "abc" must not reach the request. */
function timeoutSeconds(v: unknown): number {
  const n = typeof v === "number" && Number.isFinite(v) ? v : 300;
  return Math.max(MIN_SUMMARY_TIMEOUT_SECONDS, n);
}

/** A hand-written object setting keeps only its string values. */
function stringRecord(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!v || typeof v !== "object" || Array.isArray(v)) return out;
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (typeof x === "string" && x.trim()) out[k] = x.trim();
  return out;
}
