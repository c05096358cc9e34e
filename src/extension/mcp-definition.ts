import { join } from "node:path";
import * as vscode from "vscode";
import { FORMATS } from "../core/formats/registry";
import type { Log } from "./log";
import { agentDirs } from "./sessions-view";

/** The id package.json contributes under mcpServerDefinitionProviders. */
export const MCP_PROVIDER_ID = "agentSessions.mcp";

/** How VS Code starts `ase mcp`: what an McpStdioServerDefinition holds. */
export interface McpServerSpec {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  version: string;
}

/**
 * The slice of VS Code's MCP API (stable since 1.101) this file uses. The engine and
 * @types/vscode we pin are 1.100, which predate it: it is looked up at run time, and an
 * older VS Code simply gets no server definition.
 */
interface McpStdioDefinition {
  readonly label: string;
}
interface McpApi {
  lm: { registerMcpServerDefinitionProvider?(id: string, provider: McpDefinitionProvider): vscode.Disposable };
  McpStdioServerDefinition?: new (label: string, command: string, args?: string[], env?: Record<string, string>, version?: string) => McpStdioDefinition;
}

export interface McpDefinitionProvider {
  readonly onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(): McpStdioDefinition[];
}

/**
 * The server the Sessions view's own stores are served by: this extension's dist/cli.js
 * run by the editor's own Node (no `node` on PATH needed; ELECTRON_RUN_AS_NODE makes the
 * desktop's Electron binary one), reading every agent, with the folders the settings give.
 */
export function mcpServerSpec(extensionPath: string, dirs: Record<string, string>, extensionVersion: string): McpServerSpec {
  const agents = FORMATS.filter((f) => f.discovery).map((f) => f.id);
  const args = [join(extensionPath, "dist", "cli.js"), "mcp", ...agents.flatMap((a) => ["--agent", a])];
  // Only agents `ase mcp` knows: a setting naming another would be read as pi's folder.
  for (const [agent, dir] of Object.entries(dirs)) if (agents.includes(agent)) args.push("--dir", `${agent}=${dir}`);
  // The version changes with the folders, so VS Code asks the server for its tools again.
  const version = `${extensionVersion}+${hash(args.join("\0"))}`;
  return { label: "Agent Sessions", command: process.execPath, args, env: { ELECTRON_RUN_AS_NODE: "1" }, version };
}

function hash(s: string): string {
  let h = 5381;
  for (let i = 0; i < s.length; i++) h = ((h * 33) ^ s.charCodeAt(i)) >>> 0;
  return h.toString(36);
}

/**
 * Registers `ase mcp` as an MCP server definition, so agent mode in VS Code can call it.
 * Returns the provider (the extension tests ask it), or undefined where VS Code is too
 * old for the API (logged once).
 */
export function registerMcpDefinition(context: vscode.ExtensionContext, log: Log, api: McpApi = vscode as unknown as McpApi): McpDefinitionProvider | undefined {
  const Definition = api.McpStdioServerDefinition;
  const register = api.lm?.registerMcpServerDefinitionProvider;
  if (!Definition || !register) {
    log.info(`no MCP server definition: VS Code ${vscode.version} has no MCP server API (1.101 or later has it); \`ase mcp\` can still be configured by hand`);
    return undefined;
  }
  const changed = new vscode.EventEmitter<void>();
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? "0.0.0");
  const provider: McpDefinitionProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => {
      const spec = mcpServerSpec(context.extensionPath, agentDirs(), version);
      return [new Definition(spec.label, spec.command, spec.args, spec.env, spec.version)];
    },
  };
  context.subscriptions.push(
    changed,
    register.call(api.lm, MCP_PROVIDER_ID, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("agentSessions")) changed.fire();
    }),
  );
  return provider;
}
