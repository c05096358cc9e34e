// Entry of dist/mcp.js: the MCP server with the official SDK (and zod, ajv), in a file of
// its own so that only `ase mcp` reads it. Loaded by src/cli/commands/mcp.ts only.
export { serveStdio } from "./server";
