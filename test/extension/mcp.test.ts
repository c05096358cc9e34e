import { strict as assert } from "node:assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import * as vscode from "vscode";
import { MCP_PROVIDER_ID } from "../../src/extension/mcp-definition";
import { assistant, header, user, writeSession } from "../helpers/session-builder";
import { activateWithPiProject } from "./pi-project";

/** What a stdio definition holds (VS Code 1.101's McpStdioServerDefinition; our pinned types predate it). */
interface StdioDefinition {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
}

/**
 * Agent mode's way in: the extension offers `ase mcp` as an MCP server definition through
 * VS Code's stable API, and the server it names starts (spawned exactly as the definition
 * says, as VS Code does) and serves the sessions of the runner's pi dir.
 */
describe("MCP server definition in a real VS Code", function () {
  it("is offered, and the server it names starts and lists the sessions", async function () {
    const cwd = "/home/ana/mcp-def";
    const { api, dir } = await activateWithPiProject(cwd);
    const id = "eeeeeeee-0000-0000-0000-000000000001";
    const file = writeSession([header({ id, cwd }), user("m1", null, "hello from the MCP test"), assistant("m2", "m1", "hi")], { dir, name: `2026-03-01T00-00-00-000Z_${id}.jsonl` });

    const lm = vscode.lm as unknown as { registerMcpServerDefinitionProvider?: unknown };
    assert.equal(typeof lm.registerMcpServerDefinitionProvider, "function", `VS Code ${vscode.version} has the MCP API`);
    const ext = vscode.extensions.getExtension("agent-session-explorer.agent-session-explorer");
    const contributed = (ext?.packageJSON as { contributes?: { mcpServerDefinitionProviders?: Array<{ id: string }> } }).contributes?.mcpServerDefinitionProviders;
    assert.deepEqual(contributed?.map((c) => c.id), [MCP_PROVIDER_ID]);
    assert.ok(api.mcp, "the provider is registered");

    const defs = api.mcp.provideMcpServerDefinitions();
    assert.equal(defs.length, 1);
    const Definition = (vscode as unknown as { McpStdioServerDefinition: new (...a: never[]) => unknown }).McpStdioServerDefinition;
    assert.ok(defs[0] instanceof Definition, "a stdio definition");
    const d = defs[0] as unknown as StdioDefinition;
    assert.equal(d.label, "Agent Sessions");
    assert.deepEqual(d.args.slice(1, 2), ["mcp"]);
    assert.match(d.args[0], /dist[\\/]cli\.js$/);

    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...d.env })) if (typeof v === "string" || typeof v === "number") env[k] = String(v);
    const client = new Client({ name: "ase-ext-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: d.command, args: d.args, env, stderr: "pipe" }));
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ["file_history", "get_context", "get_tree", "list_sessions", "search_sessions", "session_cost"]);
      const res = await client.callTool({ name: "list_sessions", arguments: { agent: "pi", project: cwd } });
      const text = (res.content as Array<{ text: string }>)[0].text;
      assert.notEqual(res.isError, true, text);
      assert.deepEqual((JSON.parse(text) as { sessions: Array<{ path: string }> }).sessions.map((s) => s.path), [file]);
    } finally {
      await client.close();
    }
  });
});
