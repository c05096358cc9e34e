/** What the settings say about a leaf's context size, for every format's bars and figures. */
export interface LeafTokenOptions {
  /** pi's compaction.reserveTokens (default 16,384); other formats keep their own rule. */
  reserveTokens?: number;
  /** Context windows by model id or id prefix, beating the built-in table (a setting). */
  windows?: Readonly<Record<string, number>>;
}
