import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * pi's own session code (devDependency @mariozechner/pi-coding-agent, pinned), loaded as
 * the oracle the differential tests compare us with. It is an ES module, so it is
 * imported at run time (esbuild leaves it external); the few functions its index does not
 * export (prepareCompaction, estimateContextTokens, computeFileLists) come from their own
 * files of the same package, which are the same module instances the index uses.
 */
export type PiEntry = Record<string, unknown> & { type: string; id: string; parentId: string | null; timestamp: string };
export type PiMessage = Record<string, unknown> & { role: string };

export interface PiContext {
  messages: PiMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

export interface PiSessionManager {
  appendMessage(message: object): string;
  appendThinkingLevelChange(level: string): string;
  appendModelChange(provider: string, modelId: string): string;
  appendCompaction(summary: string, firstKeptEntryId: string, tokensBefore: number, details?: unknown, fromHook?: boolean): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendSessionInfo(name: string): string;
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
  branch(id: string): void;
  resetLeaf(): void;
  branchWithSummary(id: string | null, summary: string, details?: unknown, fromHook?: boolean): string;
  createBranchedSession(leafId: string): string | undefined;
  getEntries(): PiEntry[];
  getBranch(fromId?: string): PiEntry[];
  getHeader(): Record<string, unknown> | null;
  getLeafId(): string | null;
  getSessionFile(): string | undefined;
  buildSessionContext(): PiContext;
}

export interface PiFileOps {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export interface PiPreparation {
  firstKeptEntryId: string;
  messagesToSummarize: PiMessage[];
  turnPrefixMessages: PiMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: PiFileOps;
}

export interface Pi {
  VERSION: string;
  SessionManager: {
    create(cwd: string, sessionDir?: string): PiSessionManager;
    open(path: string, sessionDir?: string): PiSessionManager;
  };
  buildSessionContext(entries: PiEntry[], leafId?: string | null, byId?: Map<string, PiEntry>): PiContext;
  convertToLlm(messages: PiMessage[]): PiMessage[];
  calculateContextTokens(usage: object): number;
  estimateContextTokens(messages: PiMessage[]): { tokens: number; usageTokens: number; trailingTokens: number; lastUsageIndex: number | null };
  prepareCompaction(pathEntries: PiEntry[], settings: { enabled: boolean; reserveTokens: number; keepRecentTokens: number }): PiPreparation | undefined;
  computeFileLists(ops: PiFileOps): { readFiles: string[]; modifiedFiles: string[] };
}

/** The package's folder, found from this bundle upwards (its exports map hides package.json). */
function packageDir(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    const p = join(dir, "node_modules", "@mariozechner", "pi-coding-agent");
    if (existsSync(join(p, "dist", "index.js"))) return p;
    if (dirname(dir) === dir) throw new Error("@mariozechner/pi-coding-agent is not installed (a devDependency: run npm ci)");
  }
}

let loaded: Promise<Pi> | undefined;

export function loadPi(): Promise<Pi> {
  loaded ??= (async () => {
    const dir = packageDir();
    const file = (rel: string) => import(pathToFileURL(join(dir, "dist", rel)).href);
    const [index, compaction, utils] = await Promise.all([file("index.js"), file("core/compaction/compaction.js"), file("core/compaction/utils.js")]);
    return {
      VERSION: index.VERSION,
      SessionManager: index.SessionManager,
      buildSessionContext: index.buildSessionContext,
      convertToLlm: index.convertToLlm,
      calculateContextTokens: index.calculateContextTokens,
      estimateContextTokens: compaction.estimateContextTokens,
      prepareCompaction: compaction.prepareCompaction,
      computeFileLists: utils.computeFileLists,
    } as Pi;
  })();
  return loaded;
}
