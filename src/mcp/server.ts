import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PriceOverrides } from "../core/tokens/prices";
import { PagedResults } from "./paging";
import { SessionSource } from "./session-source";
import { type StoreScope, ToolInputError } from "./stores";
import { fileHistory, fileHistoryInput } from "./tools-history";
import { getContext, getContextInput, getSessionCost, getTree, getTreeInput, sessionCostInput } from "./tools-session";
import { listSessions, listSessionsInput, searchAll, searchSessionsInput } from "./tools-sessions";

export interface McpServerOptions extends StoreScope {
  prices?: PriceOverrides;
  version: string;
}

/** Every tool only reads: the hints let a client run them without asking. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * A tool's answer. An error (bad input, a file that will not load) becomes the tool's error
 * result with its one-line message; anything else is a bug, named as one.
 */
async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (err) {
    const message = err instanceof ToolInputError ? err.message : `internal error: ${(err as Error).message.split("\n")[0]}`;
    return { content: [{ type: "text", text: message }], isError: true };
  }
}

/** The result as one JSON text. */
const json = (run: () => Promise<unknown>) => guarded(async () => ({ content: [{ type: "text", text: JSON.stringify(await run()) }] }));

/** A part of a long text: what it is a part of (JSON), then the text as it is. */
const part = (run: () => Promise<{ meta: unknown; text: string }>) =>
  guarded(async () => {
    const { meta, text } = await run();
    return { content: [{ type: "text", text: JSON.stringify(meta) }, { type: "text", text }] };
  });

/** The server with its six read-only tools over the stores in scope. */
export function createServer(opts: McpServerOptions): McpServer {
  const server = new McpServer({ name: "agent-session-explorer", version: opts.version }, { instructions: "Read-only access to coding-agent sessions (pi, Claude Code, Codex, Gemini CLI, ...): list and search them, read an entry's context, a session's entry tree and cost, and which sessions touched a file. Sessions are named by the path or id list_sessions gives; long results come in pages (pass nextCursor back)." });
  const scope: StoreScope = opts;
  const pages = new PagedResults();
  const sessions = new SessionSource(scope);
  server.registerTool(
    "list_sessions",
    { title: "List sessions", description: "Sessions of every agent's store, newest first: path, id, agent, project, title, times, size. Filters: agent, project, since/until (active in the range).", inputSchema: listSessionsInput(), annotations: READ_ONLY },
    (args) => json(() => listSessions(scope, pages, args)),
  );
  server.registerTool(
    "search_sessions",
    { title: "Search sessions", description: "Find text (or a regex) in every session's visible text; hits name the session, entry id, kind, time and a snippet.", inputSchema: searchSessionsInput(), annotations: READ_ONLY },
    (args) => json(() => searchAll(scope, pages, args)),
  );
  server.registerTool(
    "get_context",
    { title: "Get an entry's context", description: "The context the agent sends the model at an entry (default: the session's leaf), as JSON text in parts of up to 48,000 characters: join the parts' text (pass nextCursor for the next) and parse.", inputSchema: getContextInput(), annotations: READ_ONLY },
    (args) => part(() => getContext(sessions, pages, args)),
  );
  server.registerTool(
    "get_tree",
    { title: "Get a session's entry tree", description: "A session's entries in tree order, root first: id, parent, kind, a one-line text, tokens, depth, and whether it is on the active branch.", inputSchema: getTreeInput(), annotations: READ_ONLY },
    (args) => json(() => getTree(sessions, pages, args)),
  );
  server.registerTool(
    "file_history",
    { title: "A file's agent history", description: "Every entry of every session that read, wrote or edited a file, newest first, with the prompt that led to it.", inputSchema: fileHistoryInput(), annotations: READ_ONLY },
    (args) => json(() => fileHistory(scope, pages, args)),
  );
  server.registerTool(
    "session_cost",
    { title: "A session's cost", description: "What a session cost in USD, in total and by model, UTC day and branch: recorded where the agent recorded it, else priced per model, else counted as unpriced.", inputSchema: sessionCostInput(), annotations: READ_ONLY },
    (args) => json(() => getSessionCost(sessions, opts.prices, args)),
  );
  return server;
}

/** Serves over stdin/stdout until the client closes stdin. Nothing but protocol goes to stdout. */
export async function serveStdio(opts: McpServerOptions): Promise<void> {
  const server = createServer(opts);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
