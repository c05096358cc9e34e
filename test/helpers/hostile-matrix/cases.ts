import { spawnSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join, sep } from "node:path";
import { baseIds, baseTurns, type CaseIds, FORMAT_IDS, type FormatId, idOf, sessionLines, type SessionFacts, type Turn } from "./formats";
import { OPENCODE_CASES, OPENCODE_IDS, OPENCODE_SESSION } from "./opencode-cases";
import { TWISTS } from "./twists";
import { HOLE, writeHugeLine, writeLines, writeSparse } from "./write-lines";

/** The store an agent reads with `--dir`: pi's sessions dir, Claude Code's / clawdcode's root, or OpenCode's data dir. */
export type Agent = "pi" | "claude-code" | "clawdcode" | "opencode";

export interface CaseSpec {
  name: string;
  about: string;
  /** The store it lives in (format-less and seed files sit in pi's). */
  agent: Agent;
  /** The ids the commands that take one use. */
  ids: CaseIds;
  /** A valid (if odd) session: `tree` must open it. */
  opens?: boolean;
  /** The commands (by name) it runs under; left out: every one. */
  commands?: readonly string[];
  /** Writes the case into `projectDir` (a store's project folder); returns the session file (or its address in a database). */
  make(projectDir: string): Promise<string>;
}

/** Files outside the temp dir that no command may read out or attach (cases 2 and 4 point at them). */
export interface Decoy {
  dir: string;
  file: string;
  marker: string;
}

export interface Sizes {
  bigLineBytes: number;
  sparseBytes: number;
}

const CWD = "/home/ana/proj";
const SESSION_ID = "5e551011-0000-4000-8000-000000000001";
/** A part of the session id unlikely anywhere else: a cache entry named with it is ours. */
export const SESSION_ID_MARK = "5e551011";
const FACTS: SessionFacts = { cwd: CWD, sessionId: SESSION_ID };

const agentOf = (f: FormatId): Agent => (f === "claude-code" ? "claude-code" : f === "clawdcode" ? "clawdcode" : "pi");
/** Claude Code and clawdcode name a file by its session id. */
const fileName = (f: FormatId | "none", name: string) => (f === "claude-code" || f === "clawdcode" ? `${SESSION_ID}.jsonl` : `${name.replace(/\//g, "-")}.jsonl`);

/** The project folder of a case in its store, and the `--dir` argument that lists it. */
export function storeOf(agent: Agent, caseRoot: string): { projectDir: string; dirArg: string } {
  if (agent === "claude-code") return { projectDir: join(caseRoot, "projects", "-home-ana-proj"), dirArg: `claude-code=${caseRoot}` };
  if (agent === "opencode") return { projectDir: join(caseRoot, "opencode"), dirArg: `opencode=${join(caseRoot, "opencode")}` };
  if (agent === "clawdcode") return { projectDir: join(caseRoot, ".clawdcode", "projects", "-home-ana-proj"), dirArg: `clawdcode=${join(caseRoot, ".clawdcode")}` };
  return { projectDir: join(caseRoot, "sessions", "--home-ana-proj--"), dirArg: `pi=${join(caseRoot, "sessions")}` };
}

function twistCases(decoy: Decoy): CaseSpec[] {
  const out: CaseSpec[] = [];
  for (const format of FORMAT_IDS) {
    for (const t of TWISTS) {
      if (t.only && !t.only.includes(format)) continue;
      // pi v1/v2 differ from v3 in how lines are read: the reading twists are enough for them.
      if ((format === "pi-v1" || format === "pi-v2") && !["plain", "truncated", "nested", "huge-numbers"].includes(t.name)) continue;
      const name = `${format}/${t.name}`;
      const ids = t.make({ format, facts: FACTS, decoyFile: decoy.file }).ids ?? baseIds(format);
      out.push({
        name,
        about: t.about,
        opens: t.opens,
        agent: agentOf(format),
        ids,
        async make(dir) {
          const o = t.make({ format, facts: FACTS, decoyFile: decoy.file });
          const file = join(dir, fileName(format, name));
          writeLines(file, o.lines, { torn: o.torn });
          return file;
        },
      });
    }
  }
  return out;
}

/** The two big ones (a 200 MB line; a sparse multi-GB file), for pi and Claude Code only: they cost seconds per command. */
function bigCases(sizes: Sizes): CaseSpec[] {
  const out: CaseSpec[] = [];
  for (const format of ["pi-v3", "claude-code"] as const) {
    const turns: Turn[] = [
      { n: 1, parent: null, role: "user", text: HOLE },
      { n: 2, parent: 1, role: "assistant", text: "a long one", usage: { input: 5e7, output: 3 } },
    ];
    const ids = { at: idOf(format, 2), a: idOf(format, 2), b: idOf(format, 1), to: idOf(format, 1) };
    out.push({
      name: `${format}/big-line`,
      about: `one line of ${Math.round(sizes.bigLineBytes / 1e6)} MB (10)`,
      opens: true,
      agent: agentOf(format),
      ids,
      async make(dir) {
        const ls = sessionLines(format, turns, FACTS);
        const at = format === "pi-v3" ? 1 : 0;
        const file = join(dir, fileName(format, `${format}-big-line`));
        writeHugeLine(file, ls.slice(0, at), ls[at], sizes.bigLineBytes, ls.slice(at + 1));
        return file;
      },
    });
    out.push({
      name: `${format}/sparse`,
      about: `a valid start, then NULs to ${(sizes.sparseBytes / 2 ** 30).toFixed(1)} GiB (a sparse file)`,
      agent: agentOf(format),
      ids: baseIds(format),
      async make(dir) {
        const file = join(dir, fileName(format, `${format}-sparse`));
        writeSparse(file, sessionLines(format, baseTurns(format), FACTS), sizes.sparseBytes);
        return file;
      },
    });
  }
  return out;
}

/** A Claude Code session whose Task call started sub-agent a1; `layout` sets up its sub-agents folder. */
function claudeCodeWithAgent(name: string, about: string, layout: (sessionDir: string) => void, sessionId = SESSION_ID): CaseSpec {
  const turns: Turn[] = [...baseTurns("claude-code"), { n: 7, parent: 4, role: "assistant", text: "delegating", call: { id: "call_t", name: "Task", input: { description: "look around", prompt: "go", subagent_type: "general-purpose" } } }, { n: 8, parent: 7, role: "result", text: "report", answers: { id: "call_t", name: "Task" } }];
  return {
    name,
    about,
    opens: true,
    agent: "claude-code",
    ids: baseIds("claude-code"),
    async make(dir) {
      const ls = sessionLines("claude-code", turns, { cwd: CWD, sessionId });
      ls[ls.length - 1] = { ...ls[ls.length - 1], toolUseResult: { agentId: "a1", agentType: "general-purpose", status: "completed" } };
      const file = join(dir, `${SESSION_ID}.jsonl`);
      writeLines(file, ls);
      layout(join(dir, SESSION_ID));
      return file;
    },
  };
}

function subagentLines(agentId: string, text: string): string[] {
  const line = (uuid: string, parent: string | null, type: string, message: unknown) => JSON.stringify({ parentUuid: parent, isSidechain: true, userType: "external", cwd: CWD, sessionId: SESSION_ID, agentId, version: "2.1.90", type, uuid, timestamp: "2026-03-01T10:01:00.000Z", message });
  return [line("a0000000-0000-4000-8000-000000000001", null, "user", { role: "user", content: text }), line("a0000000-0000-4000-8000-000000000002", "a0000000-0000-4000-8000-000000000001", "assistant", { role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text }], usage: { input_tokens: 1, output_tokens: 1 } })];
}

function claudeCodeCases(decoy: Decoy): CaseSpec[] {
  return [
    claudeCodeWithAgent("claude-code/subagent-loop", "a symlink loop under <session>/subagents (l1 -> .) (3)", (sessionDir) => {
      const sub = join(sessionDir, "subagents");
      mkdirSync(join(sub, "workflows"), { recursive: true });
      writeLines(join(sub, "agent-a1.jsonl"), subagentLines("a1", "sub-agent at work"));
      symlinkSync(".", join(sub, "l1"));
      symlinkSync("..", join(sub, "workflows", "l2"));
    }),
    claudeCodeWithAgent("claude-code/subagents-usr", "<session>/subagents is a link to /usr (3)", (sessionDir) => {
      mkdirSync(sessionDir, { recursive: true });
      symlinkSync("/usr", join(sessionDir, "subagents"));
    }),
    {
      // The sessionId climbs out of the store to the decoy, whose subagents/ folder must not be attached.
      ...claudeCodeWithAgent("claude-code/sessionid-escape", "a sessionId of ../../../.. leading outside the store (4)", () => undefined),
      async make(dir) {
        const up = "../".repeat(dir.split(sep).filter(Boolean).length);
        const spec = claudeCodeWithAgent("", "", () => undefined, `${up}${decoy.dir.slice(1)}`);
        return spec.make(dir);
      },
    },
  ];
}

/** Servers holding the sockets made below, closed by `closeSockets`. */
const servers: Server[] = [];

function listenOn(path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createServer(() => undefined);
    s.once("error", reject);
    s.listen(path, () => resolve());
    servers.push(s);
  });
}

export function closeSockets(): void {
  for (const s of servers.splice(0)) s.close();
}

function special(name: string, about: string, make: (file: string) => void | Promise<void>): CaseSpec {
  return {
    name: `none/${name}`,
    about,
    agent: "pi",
    ids: { at: "00000001", a: "00000001", b: "00000002", to: "00000001" },
    async make(dir) {
      const file = join(dir, fileName("none", name));
      await make(file);
      return file;
    },
  };
}

/** Files no format claims, under names that look like sessions. */
function formatlessCases(sizes: Sizes): CaseSpec[] {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
  return [
    special("fifo", "a FIFO named *.jsonl (7)", (f) => {
      const r = spawnSync("mkfifo", [f]);
      if (r.status !== 0) throw new Error(`mkfifo ${f}: ${r.stderr}`);
    }),
    special("socket", "a Unix socket named *.jsonl (7)", (f) => listenOn(f)),
    special("zero-link", "a link to /dev/zero", (f) => symlinkSync("/dev/zero", f)),
    special("dangling-link", "a link to nothing", (f) => symlinkSync(`${f}.missing`, f)),
    special("link-loop", "two links pointing at each other", (f) => {
      symlinkSync(`${f}.other`, f);
      symlinkSync(f, `${f}.other`);
    }),
    special("directory", "a directory named *.jsonl", (f) => mkdirSync(f)),
    special("sparse", `${(sizes.sparseBytes / 2 ** 30).toFixed(1)} GiB of NULs, no line break (sparse)`, (f) => writeSparse(f, [], sizes.sparseBytes)),
    special("empty", "an empty file", (f) => writeFileSync(f, "")),
    special("nuls", "1 MiB of NUL bytes", (f) => writeFileSync(f, Buffer.alloc(1 << 20))),
    special("binary", "1 MiB of pseudo-random bytes", (f) => writeFileSync(f, Buffer.from(Array.from({ length: 1 << 20 }, random)))),
  ];
}

/**
 * OpenCode's databases, under the commands that read a session or its store (a session is a
 * row: every write is refused the same way, so fork stands for them all). Ten commands,
 * not every one: each cell loads SQLite and opens a database, and the matrix keeps its minutes.
 */
const OPENCODE_COMMANDS = ["tree", "context --format native", "context --format anthropic", "cost", "diff --a --b", "export --all --format json", "fork --at", "search --file", "list --dir", "search --dir"];

function opencodeCases(): CaseSpec[] {
  return OPENCODE_CASES.map((c) => ({
    name: c.name,
    about: c.about,
    opens: c.opens,
    agent: "opencode",
    ids: OPENCODE_IDS,
    commands: OPENCODE_COMMANDS,
    async make(dir) {
      const db = join(dir, "opencode.db");
      await c.make(db);
      return `${db}#${OPENCODE_SESSION}`;
    },
  }));
}

/** Every hostile case of the matrix. */
export function hostileCases(decoy: Decoy, sizes: Sizes): CaseSpec[] {
  return [...twistCases(decoy), ...bigCases(sizes), ...claudeCodeCases(decoy), ...formatlessCases(sizes), ...opencodeCases()];
}

/** The decoy: a secret file and a sub-agent folder, outside the matrix's temp dir. */
export function writeDecoy(dir: string): Decoy {
  const marker = "ASE-DECOY-7c1f";
  mkdirSync(join(dir, "subagents"), { recursive: true });
  const file = join(dir, "secret.txt");
  writeFileSync(file, `${marker} secret\n`);
  writeLines(join(dir, "subagents", "agent-decoy.jsonl"), subagentLines("decoy", `${marker} sub-agent`));
  writeFileSync(join(dir, "subagents", "agent-decoy.meta.json"), JSON.stringify({ agentType: marker, description: marker }));
  return { dir, file, marker };
}
