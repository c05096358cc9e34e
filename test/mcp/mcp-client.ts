import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

export const CLI = resolve("dist/cli.js");

/** What a tool call gave back: its texts, and the first parsed when it is JSON. */
export interface ToolAnswer {
  isError: boolean;
  texts: string[];
  json: Record<string, unknown>;
}

/** An MCP SDK client talking to `node dist/cli.js mcp ARGS` over stdio, as an agent would. */
export class McpTestClient {
  readonly client = new Client({ name: "ase-mcp-test", version: "1.0.0" });
  stderr = "";
  private transport: StdioClientTransport;

  constructor(args: string[], env: Record<string, string>) {
    this.transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], env, stderr: "pipe" });
    this.transport.stderr?.on("data", (d: Buffer) => {
      this.stderr += d.toString();
    });
  }

  connect(): Promise<void> {
    return this.client.connect(this.transport);
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
    const res = await this.client.callTool({ name, arguments: args });
    const texts = (res.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? "");
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(texts[0]) as Record<string, unknown>;
    } catch {
      // An error's text is no JSON.
    }
    return { isError: res.isError === true, texts, json };
  }

  /** Every item of a paged result, following nextCursor; also the pages' sizes. */
  async all(name: string, args: Record<string, unknown>, key: string): Promise<{ items: Array<Record<string, unknown>>; pages: number; total: number }> {
    const items: Array<Record<string, unknown>> = [];
    let cursor: string | undefined;
    let pages = 0;
    let total = -1;
    do {
      const a = await this.call(name, { ...args, ...(cursor ? { cursor } : {}) });
      if (a.isError) throw new Error(`${name} page ${pages + 1}: ${a.texts[0]}`);
      pages++;
      total = a.json.total as number;
      items.push(...(a.json[key] as Array<Record<string, unknown>>));
      cursor = a.json.nextCursor as string | undefined;
      if (pages > 1000) throw new Error("paging does not end");
    } while (cursor);
    return { items, pages, total };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** The CLI's own JSON for the same question (the server must agree with it). */
export function cliJson(args: string[], env: Record<string, string>): Record<string, unknown> {
  return JSON.parse(execFileSync(process.execPath, [CLI, ...args], { env, encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "pipe"] })) as Record<string, unknown>;
}
