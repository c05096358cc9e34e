import type { FileTouch } from "../core/history/file-touch";

// The per-file agent history comes from src/core/history/lookup.ts (issue 31, written in
// parallel). Until it is merged this build has none: file_history says so. At the merge
// this file becomes one line:
//   export { lookupFileHistory } from "../core/history/lookup";
// and file_history's test (test/mcp/mcp-server.test.ts, "file_history") is enabled.

/** lookup.ts's signature: every touch of a file across the sessions of the stores given. */
export type FileHistoryLookup = (absolutePath: string, opts: { dirs: Record<string, string>; cacheDir?: string }) => Promise<FileTouch[]>;

export const lookupFileHistory: FileHistoryLookup | undefined = undefined;
