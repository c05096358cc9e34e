// What the per-file agent history records: one entry of one session that read, wrote or
// edited a file. The index (built from the file operations each format already extracts)
// and its readers (the Agent History view, agent blame, `ase history`, the MCP server)
// share this shape.

export type FileOperation = 'read' | 'write' | 'edit';

export interface FileTouch {
  /** The agent's format id (pi, claude-code, codex, ...). */
  agent: string;
  /** The session's path (or `<db>#<id>` address) as the rest of the product takes it. */
  sessionPath: string;
  /** The session's title, as the Sessions view shows it. */
  sessionTitle: string;
  entryId: string;
  /** ISO time of the entry, when recorded. */
  timestamp?: string;
  operation: FileOperation;
  /** The file as the session named it, resolved against the session's cwd. */
  absolutePath: string;
  /** Set when the session ran in another checkout of the same repository. */
  otherCheckout?: string;
  /** For edits and writes, when the session recorded them. */
  oldText?: string;
  newText?: string;
  /** Why an edit's texts recorded in its session are not given (the file changed since it was indexed). */
  textNote?: string;
  /** The user prompt of the turn that led to this operation (shortened). */
  prompt?: string;
}
