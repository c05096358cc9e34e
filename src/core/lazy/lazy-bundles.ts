import type * as AnthropicBundle from "./anthropic-bundle";
import type * as ExportPageBundle from "./export-page-bundle";
import type * as SqliteBundle from "./sqlite-bundle";
import type * as TokenizerBundle from "./tokenizer-bundle";

/**
 * The two heavy libraries live in bundles of their own (dist/tokenizer.js and
 * dist/anthropic-sdk.js, see esbuild.mjs), required here on first use: start-up of the
 * CLI and activation of the extension parse neither. esbuild.mjs turns each `require`
 * below into a require of the sibling bundle file; type-only imports above cost nothing.
 */
export type Tokenizer = typeof TokenizerBundle;
export type AnthropicSdk = typeof AnthropicBundle;
export type SqliteWasm = typeof SqliteBundle;

let tokenizer: Tokenizer | undefined;
let anthropic: AnthropicSdk | undefined;
let exportPage: ExportPage | undefined;
export type ExportPage = (typeof ExportPageBundle)["exportPage"];
let sqlite: SqliteWasm | undefined;

/** The o200k tokenizer; its tables are built on the first call (tens of ms). */
export function loadTokenizer(): Tokenizer {
  tokenizer ??= require("./tokenizer-bundle") as Tokenizer;
  return tokenizer;
}

/** @anthropic-ai/sdk, read on the first call. */
export function loadAnthropicSdk(): AnthropicSdk {
  anthropic ??= require("./anthropic-bundle") as AnthropicSdk;
  return anthropic;
}

/** The exported HTML page's script and stylesheet (dist/export-page.js), read on the first export. */
export function loadExportPage(): ExportPage {
  exportPage ??= (require("./export-page-bundle") as typeof ExportPageBundle).exportPage;
  return exportPage;
}

/** sql.js (SQLite in WebAssembly), read on the first call: only OpenCode's database needs it. */
export function loadSqliteWasm(): SqliteWasm {
  sqlite ??= require("./sqlite-bundle") as SqliteWasm;
  return sqlite;
}

/** Which heavy bundles this process has loaded so far (for logs and start-up tests). */
export function loadedBundles(): string[] {
  return [...(tokenizer ? ["tokenizer"] : []), ...(anthropic ? ["anthropic-sdk"] : []), ...(exportPage ? ["export-page"] : []), ...(sqlite ? ["sqlite"] : [])];
}
