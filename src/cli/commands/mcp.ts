import type * as McpBundle from "../../mcp/mcp-bundle";
import { version } from "../../../package.json";
import { onlyAgents, parseDirs } from "../agent-dirs";
import { parseFlags } from "../args";
import { type CliCommand, CliError } from "../cli-error";
import { readPrices } from "../prices-file";
import { cacheDir } from "./list";

const usage = "ase mcp [--dir [AGENT=]D]... [--agent A]... [--prices FILE] [--no-cache]";


export const mcpCommand: CliCommand = {
  name: "mcp",
  usage,
  summary: "a Model Context Protocol server on stdin/stdout, read only: list_sessions, search_sessions, get_context, get_tree, file_history, session_cost over every agent's store (or those given)",
  async run(args, io) {
    const { values, positionals } = parseFlags(
      args,
      { dir: { type: "string", multiple: true }, agent: { type: "string", multiple: true }, prices: { type: "string" }, "no-cache": { type: "boolean" } },
      usage,
    );
    if (positionals.length) throw new CliError(`unexpected argument "${positionals[0]}" (usage: ${usage})`);
    const dirs = parseDirs(values.dir ?? []);
    const only = onlyAgents(values.agent, dirs);
    const prices = readPrices(values.prices, io);
    // Read on first use (esbuild makes this a require of dist/mcp.js beside dist/cli.js).
    const bundle = require("../../mcp/mcp-bundle") as typeof McpBundle;
    await bundle.serveStdio({ dirs, only, env: io.env, cacheDir: values["no-cache"] ? undefined : cacheDir(io.env), prices, version });
  },
};
