import { join } from "node:path";
import * as vscode from "vscode";
import { gptTokenizerCounter } from "../core/tokens/bpe-counter";
import { TokenCache, tokenCacheFile } from "../core/tokens/token-cache";
import type { CountExact } from "../explorer/exact-counting";
import { readSettings } from "./settings";

/**
 * tokenCounting = exact: BPE counts in the background with progress in the status bar,
 * cached by content hash per session under the extension's storage.
 */
export function exactCounts(cacheDir: string): CountExact {
  return async (s, table, indices, signal) => {
    if (readSettings().tokenCounting !== "exact") return;
    // Formats without their own token table have no per-entry exact counts to fill.
    const tokens = s.format.tokenTable;
    if (!tokens) return;
    const cache = TokenCache.open(tokenCacheFile(join(cacheDir, "tokens"), s.path), "o200k_base");
    try {
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Counting tokens" }, (progress) =>
        tokens.measure(s, table, { counter: gptTokenizerCounter(), cache, indices, signal, onProgress: (done, total) => progress.report({ message: `${Math.round((100 * done) / Math.max(total, 1))}%` }) }),
      );
    } finally {
      cache.save();
    }
  };
}
