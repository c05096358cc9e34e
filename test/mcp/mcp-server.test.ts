import { strict as assert } from "node:assert";
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { assistant, header, toolResult, user, writeSession } from "../helpers/session-builder";
import { cliJson, McpTestClient } from "./mcp-client";
import { BIG_CHARS, buildMcpStores, MANY, type McpStores, snapshot } from "./mcp-stores";

/**
 * `ase mcp` as an agent meets it: the official SDK's client spawns `node dist/cli.js mcp`
 * over stdio, with three stores (pi, Claude Code, ClawdCode) in temp folders, and calls
 * every tool, well and badly. The answers must agree with the CLI's, pages must give
 * every item exactly once, bad input must get a clear one-line error, and nothing may be
 * written anywhere but our cache folder.
 */
describe("ase mcp: the MCP server over stdio", function () {
  let s: McpStores;
  let env: Record<string, string>;
  let dirArgs: string[];
  let mcp: McpTestClient;
  let stamps: Record<string, string>;

  before(async function () {
    s = buildMcpStores();
    env = { PATH: process.env.PATH ?? "", HOME: s.home, XDG_CACHE_HOME: s.cacheHome };
    dirArgs = ["--dir", s.pi, "--dir", `claude-code=${s.claudeCode}`, "--dir", `clawdcode=${s.clawdcode}`];
    stamps = { ...snapshot(s.pi), ...snapshot(s.claudeCode), ...snapshot(s.clawdcode), ...snapshot(join(s.outside, "..")) };
    mcp = new McpTestClient(dirArgs, env);
    await mcp.connect();
  });

  after(async function () {
    await mcp?.close();
  });

  it("offers the six tools, read only, with strict input schemas", async function () {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["file_history", "get_context", "get_tree", "list_sessions", "search_sessions", "session_cost"]);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.equal((t.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, `${t.name} refuses unknown fields`);
      assert.equal(t.annotations?.readOnlyHint, true, t.name);
    }
    const list = tools.find((t) => t.name === "list_sessions");
    assert.deepEqual((list?.inputSchema.properties as Record<string, { enum?: string[] }>).agent.enum?.includes("claude-code"), true);
  });

  it("list_sessions: the CLI's listing, newest first, every session exactly once over pages of 4", async function () {
    const { items, pages, total } = await mcp.all("list_sessions", { limit: 4 }, "sessions");
    const cli = cliJson(["list", "--json", ...dirArgs], env) as { projects: Array<{ sessions: Array<{ path: string }> }> };
    const listed = cli.projects.flatMap((p) => p.sessions.map((x) => x.path));
    // The CLI lists the link in pi's store to a file elsewhere; the server neither lists nor reads it.
    assert.ok(listed.includes(s.link));
    const expected = listed.filter((p) => p !== s.link).sort();
    const paths = items.map((i) => i.path as string);
    assert.equal(new Set(paths).size, paths.length, "no session twice");
    assert.deepEqual([...paths].sort(), expected);
    assert.equal(total, expected.length);
    assert.equal(pages, Math.ceil(expected.length / 4));
    for (const f of [s.piFile, s.ccFile, s.clFile, s.big, ...s.many]) assert.ok(paths.includes(f), `${f} listed`);
    const modified = items.map((i) => Date.parse(i.modified as string));
    assert.deepEqual(modified, [...modified].sort((a, b) => b - a), "newest first");
    assert.equal(items[0].path, s.piFile);
  });

  it("list_sessions filters by agent, project and date range", async function () {
    const cc = await mcp.call("list_sessions", { agent: "claude-code" });
    assert.deepEqual((cc.json.sessions as Array<{ path: string }>).map((x) => x.path), [s.ccFile]);
    const proj = await mcp.call("list_sessions", { project: "/home/bo/paging", limit: 200 });
    assert.deepEqual((proj.json.sessions as Array<{ path: string }>).map((x) => x.path).sort(), [...s.many].sort());
    // Active between 2026-02-10 and 2026-03-03: the paging sessions of days 10, 11, 12, the
    // March ones, and pi's, created in January and written to in March.
    const since = await mcp.call("list_sessions", { since: "2026-02-10", until: "2026-03-03" });
    assert.deepEqual((since.json.sessions as Array<{ path: string }>).map((x) => x.path), [s.piFile, s.ccFile, s.clFile, s.many[11], s.many[10], s.many[9]]);
    // Created after the range ends: the paging sessions were created on 2026-01-01 (their header).
    const none = await mcp.call("list_sessions", { until: "2025-12-31" });
    assert.deepEqual(none.json.sessions, []);
  });

  it("search_sessions: hits of every format, the same whole or one per page", async function () {
    const whole = await mcp.call("search_sessions", { query: "frobnicator", limit: 200 });
    assert.equal(whole.isError, false, whole.texts[0]);
    const hits = whole.json.hits as Array<{ session: string; agent: string; entryId: string; kind: string }>;
    assert.deepEqual([...new Set(hits.map((h) => h.agent))].sort(), ["claude-code", "clawdcode", "pi"]);
    const cli = cliJson(["search", "frobnicator", "--json", ...dirArgs], env) as { sessions: Array<{ path: string; hits: Array<{ entryId: string }> }> };
    assert.deepEqual(
      hits.map((h) => `${h.session}#${h.entryId}`),
      cli.sessions.flatMap((x) => x.hits.map((h) => `${x.path}#${h.entryId}`)),
    );
    const paged = await mcp.all("search_sessions", { query: "frobnicator", limit: 1 }, "hits");
    assert.equal(paged.pages, hits.length);
    assert.deepEqual(paged.items, hits);
    const cc = await mcp.call("search_sessions", { query: "FROBNICATOR", caseSensitive: true });
    assert.deepEqual(cc.json.hits, []);
    // The link in pi's store leads to a file outside: the CLI finds its text, the server does not show it.
    const cliSecret = cliJson(["search", "secret", "--json", ...dirArgs], env) as { sessions: Array<{ path: string }> };
    assert.deepEqual(cliSecret.sessions.map((x) => x.path), [s.link]);
    const secret = await mcp.call("search_sessions", { query: "secret" });
    assert.deepEqual(secret.json.hits, []);
  });

  it("get_context: native, anthropic and xml; a big one in parts that join to the CLI's JSON", async function () {
    const native = await mcp.call("get_context", { session: s.ccFile, format: "native" });
    assert.equal(native.isError, false, native.texts[0]);
    assert.equal(native.json.parts, 1);
    assert.deepEqual(JSON.parse(native.texts[1]), cliJson(["context", s.ccFile, "--format", "native"], env));
    const xml = await mcp.call("get_context", { session: s.clFile, format: "xml" });
    assert.deepEqual(JSON.parse(xml.texts[1]), cliJson(["context", s.clFile, "--format", "xml"], env));
    // By id, at an entry that is not the leaf.
    const atP2 = await mcp.call("get_context", { session: "11111111-2222-3333-4444-555555555555", entryId: "p2" });
    assert.equal(atP2.json.leafId, "p2");
    assert.deepEqual(JSON.parse(atP2.texts[1]), cliJson(["context", s.piFile, "--leaf", "p2", "--format", "anthropic"], env));

    let text = "";
    let cursor: string | undefined;
    let parts = 0;
    do {
      const a = await mcp.call("get_context", { session: s.big, ...(cursor ? { cursor } : {}) });
      assert.equal(a.isError, false, a.texts[0]);
      assert.ok(a.texts[1].length <= 48_000, `part ${parts + 1} is within the cap`);
      text += a.texts[1];
      parts++;
      assert.equal(a.json.part, parts);
      cursor = a.json.nextCursor as string | undefined;
    } while (cursor);
    assert.ok(parts >= Math.ceil(BIG_CHARS / 48_000), `${parts} parts`);
    assert.deepEqual(JSON.parse(text), cliJson(["context", s.big, "--format", "anthropic"], env));
  });

  it("get_tree: the CLI's tree --json entries, each once over pages", async function () {
    for (const file of [s.piFile, s.ccFile, s.clFile]) {
      const { items, total } = await mcp.all("get_tree", { session: file, all: true, limit: 2 }, "entries");
      const cli = cliJson(["tree", file, "--all", "--json"], env) as { entries: Array<{ id: string; kind: string; onActivePath: boolean }> };
      assert.equal(total, cli.entries.length, file);
      assert.deepEqual(
        items.map((e) => [e.id, e.kind, e.onActivePath]),
        cli.entries.map((e) => [e.id, e.kind, e.onActivePath]),
        file,
      );
    }
  });

  it("session_cost: the CLI's figures", async function () {
    for (const file of [s.big, s.ccFile]) {
      const a = await mcp.call("session_cost", { session: file });
      assert.equal(a.isError, false, a.texts[0]);
      const cli = cliJson(["cost", file, "--json"], env);
      assert.deepEqual(a.json.total, cli.total, file);
      assert.deepEqual(a.json.byModel, cli.byModel, file);
    }
    const big = await mcp.call("session_cost", { session: s.big });
    assert.ok(((big.json.total as { usd: number }).usd) > 0);
  });

  it("file_history: a relative path is refused; a file no session touched has an empty history", async function () {
    const rel = await mcp.call("file_history", { path: "src/a.ts" });
    assert.equal(rel.isError, true);
    assert.match(rel.texts[0], /path "src\/a\.ts" is not absolute/);
    const none = await mcp.call("file_history", { path: "/home/ana/proj/src/never-touched.ts" });
    assert.notEqual(none.isError, true, none.texts[0]);
    assert.deepEqual(none.json.touches, []);
  });

  it("file_history: every session that touched a file, newest first, paged", async function () {
    const dir = join(s.pi, "--home-ana-hist--");
    mkdirSync(dir, { recursive: true });
    writeSession(
      [
        header({ id: "dddddddd-0000-0000-0000-000000000000", cwd: "/home/ana/hist" }),
        user("h1", null, "fix the bug in util.ts"),
        assistant("h2", "h1", "", { toolCalls: [{ id: "r1", name: "read", arguments: { path: "src/util.ts" } }] }),
        toolResult("h3", "h2", "r1", "read", "export const a = 1;"),
        assistant("h4", "h3", "", { toolCalls: [{ id: "e1", name: "edit", arguments: { path: "/home/ana/hist/src/util.ts", oldText: "a = 1", newText: "a = 2" } }] }),
        toolResult("h5", "h4", "e1", "edit", "ok"),
      ],
      { dir, name: "2026-03-05T00-00-00-000Z_dddddddd-0000-0000-0000-000000000000.jsonl" },
    );
    const { items } = await mcp.all("file_history", { path: "/home/ana/hist/src/util.ts", limit: 1 }, "touches");
    assert.deepEqual(items.map((t) => [t.entryId, t.operation]).sort(), [["h2", "read"], ["h4", "edit"]].sort());
    const edit = items.find((t) => t.operation === "edit") as { newText?: { text: string } };
    assert.equal(edit.newText?.text, "a = 2");
  });

  it("refuses bad input with a clear one-line error", async function () {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ["list_sessions", { limit: "ten" }, /expected number, received string at limit/],
      ["list_sessions", { limit: 1e9 }, /Too big: expected number to be <=200 at limit/],
      ["list_sessions", { limit: 0 }, /expected number to be >=1 at limit/],
      ["list_sessions", { agent: "vim" }, /Invalid option: expected one of .*"pi".* at agent/],
      ["list_sessions", { sessoin: "x" }, /Unrecognized key: "sessoin"/],
      ["list_sessions", { since: "yesterday" }, /since expects a day \(2026-01-31, UTC\) or a time with its zone \(2026-01-31T12:00:00Z\), got "yesterday"/],
      ["list_sessions", { until: "2026-02-30" }, /until expects a day .*got "2026-02-30"/],
      ["list_sessions", { since: "2026-03-02", until: "2026-03-01" }, /since \(2026-03-02\) is after until \(2026-03-01\)/],
      ["list_sessions", { cursor: "garbage!" }, /cursor is not one this server gave/],
      ["search_sessions", { query: "" }, /Too small: expected string to have >=1 characters at query/],
      ["search_sessions", { query: "(", regex: true }, /regular expression|regex/i],
      ["get_tree", { session: 42 }, /expected string, received number at session/],
      ["get_tree", { session: `${s.pi}/../outside.jsonl` }, /session path ".*outside\.jsonl" is outside the agents' stores \(.*\(pi\).*\): this server reads only those/],
      ["get_tree", { session: `${s.pi}/../../${s.outside.split("/").slice(-2).join("/")}` }, /is outside the agents' stores/],
      ["get_context", { session: s.outside }, /session path ".*secret\.jsonl" is outside the agents' stores/],
      ["get_context", { session: s.link }, /leads outside the agents' stores through a link/],
      ["session_cost", { session: "../secret.jsonl" }, /session "\.\.\/secret\.jsonl" is a relative path/],
      ["session_cost", { session: "no-such-session" }, /unknown session "no-such-session": give a path or an id that list_sessions returns/],
      ["session_cost", { session: join(s.pi, "--home-ana-proj--", "gone.jsonl") }, /no session file at ".*gone\.jsonl"/],
      ["get_tree", { session: s.piFile, leafId: "nope" }, /no entry with id "nope" \(given as leafId; get_tree lists the ids\)/],
      ["get_context", { session: s.piFile, format: "html" }, /Invalid option: expected one of "native"\|"anthropic"\|"xml" at format/],
      ["get_context", { session: s.piFile, entryId: "nope" }, /no entry with id "nope" \(given as entryId/],
    ];
    for (const [tool, args, want] of cases) {
      const a = await mcp.call(tool, args);
      assert.equal(a.isError, true, `${tool} ${JSON.stringify(args)} is an error (got ${a.texts[0]?.slice(0, 200)})`);
      assert.match(a.texts[0], want, `${tool} ${JSON.stringify(args)}`);
      assert.doesNotMatch(a.texts[0], /internal error|\n\s+at /, "no stack trace, no internal error");
    }
    const unknown = await mcp.client.callTool({ name: "delete_sessions", arguments: {} }).then(
      (r) => JSON.stringify(r),
      (e: Error) => e.message,
    );
    assert.match(unknown, /Tool delete_sessions not found/);
  });

  it("a cursor continues only its own query", async function () {
    const first = await mcp.call("list_sessions", { limit: 2 });
    const cursor = first.json.nextCursor as string;
    const other = await mcp.call("list_sessions", { limit: 2, agent: "pi", cursor });
    assert.match(other.texts[0], /cursor belongs to a list_sessions call with other arguments/);
    const wrongTool = await mcp.call("get_tree", { session: s.piFile, cursor });
    assert.match(wrongTool.texts[0], /cursor belongs to list_sessions, not get_tree/);
    // The limit may change between pages.
    const next = await mcp.call("list_sessions", { limit: 5, cursor });
    assert.equal(next.isError, false, next.texts[0]);
    assert.equal(next.json.offset, 2);
  });

  it("has written nothing but its own cache", async function () {
    // A file that appears in a store while the server runs is no write of ours: the check runs last.
    const now = { ...snapshot(s.pi), ...snapshot(s.claudeCode), ...snapshot(s.clawdcode), ...snapshot(join(s.outside, "..")) };
    for (const [p, st] of Object.entries(stamps)) assert.equal(now[p], st, `${p} unchanged`);
    for (const p of Object.keys(now)) assert.ok(stamps[p] !== undefined || p.includes("--home-ana-hist--"), `${p} is new`);
    assert.deepEqual(readdirSync(s.home), [], "nothing in HOME");
    assert.ok(readdirSync(join(s.cacheHome, "agent-session-explorer")).length > 0, "the listing's cache is in our cache folder");
    assert.equal(mcp.stderr.includes("    at "), false, `no stack trace on stderr: ${mcp.stderr.slice(0, 500)}`);
  });

  it("exits 2 with a one-line error for a bad flag, before serving", function () {
    let err: { status: number; stderr: string } | undefined;
    try {
      cliJson(["mcp", "--agent", "vim"], env);
    } catch (e) {
      err = e as { status: number; stderr: string };
    }
    assert.equal(err?.status, 2);
    assert.match(err?.stderr ?? "", /^ase mcp: unknown agent "vim" \(agents with a session store: .*\)\n$/);
  });
});
