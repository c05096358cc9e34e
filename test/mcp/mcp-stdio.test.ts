import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { buildStores } from "../helpers/search-stores";
import { tempDir } from "../helpers/session-builder";
import { CLI } from "./mcp-client";

/**
 * The server's stdio itself, without the SDK's client: a line that is no JSON-RPC does not
 * stop it, stdout carries nothing but protocol messages, and it exits by itself (code 0)
 * when its client closes stdin, a regex search's thread included.
 */
describe("ase mcp: raw stdio", function () {
  it("survives garbage, prints only protocol on stdout, exits when stdin closes", async function () {
    const s = buildStores();
    const child = spawn(process.execPath, [CLI, "mcp", "--dir", s.pi, "--dir", `claude-code=${s.claudeCode}`], {
      env: { PATH: process.env.PATH ?? "", HOME: tempDir(), XDG_CACHE_HOME: tempDir() },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const send = (m: unknown) => child.stdin.write(`${typeof m === "string" ? m : JSON.stringify(m)}\n`);
    const answered = async (id: number) => {
      const end = Date.now() + 60_000;
      for (;;) {
        const msg = out
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { id?: number; result?: { content?: Array<{ text: string }> } })
          .find((m) => m.id === id);
        if (msg) return msg;
        if (Date.now() > end) throw new Error(`no answer to request ${id}; stderr: ${err}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    send("this is not JSON-RPC {");
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    const init = await answered(1);
    assert.ok(init.result, "initialized after a garbage line");
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "search_sessions", arguments: { query: "frob(nicat|nicate)", regex: true } } });
    const search = await answered(2);
    const hits = JSON.parse(search.result?.content?.[0].text ?? "{}") as { hits: Array<{ agent: string }> };
    assert.deepEqual([...new Set(hits.hits.map((h) => h.agent))].sort(), ["claude-code", "pi"]);

    child.stdin.end();
    assert.equal(await exited, 0, `exit code (stderr: ${err})`);
    for (const line of out.split("\n").filter(Boolean)) assert.equal((JSON.parse(line) as { jsonrpc: string }).jsonrpc, "2.0", `a protocol line: ${line.slice(0, 100)}`);
  });
});
