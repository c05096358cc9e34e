import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { asstMsg, OcDb, stepFinish, stepStart, text, tool, userMsg } from "../../formats/opencode/oc-db";
import { startWriter, type Writer } from "../../formats/opencode/sqlite-writer";
import type { CaseIds } from "./formats";

/**
 * OpenCode's store in the matrix: a session is a row of a SQLite database in WAL mode,
 * addressed `<db>#<id>`, so its hostile inputs are databases (docs/opencode-format.md):
 * damaged, locked by a writer mid-transaction, a -wal without its -shm or cut mid-frame,
 * rows whose JSON does not parse or whose part type is unknown. Each case is the store's
 * data dir (`opencode=<dir>`) holding opencode.db; the session's id carries the matrix's
 * mark, so a cache entry named after it is known as ours.
 */

export const OPENCODE_SESSION = "ses_5e551011hostile";
/** Entries are parts: fork at the answer, diff the two answers, branch to the first question. */
export const OPENCODE_IDS: CaseIds = { at: "prt_a3", a: "prt_a3", b: "prt_b2", to: "prt_a1" };

/** A session of two turns: a question, a step with a tool call and an answer, a second question and answer. */
function session(): OcDb {
  return new OcDb()
    .session({ id: OPENCODE_SESSION, directory: "/home/ana/proj", title: "a hostile OpenCode session" })
    .message(OPENCODE_SESSION, "msg_a", userMsg("q"), [["prt_a1", text("a question about the exports")]])
    .message(OPENCODE_SESSION, "msg_b", asstMsg("msg_a"), [
      ["prt_a2", stepStart()],
      ["prt_a2t", tool("call_1", "bash", { command: "ls" }, { status: "completed", output: "README.md\n", title: "ls", metadata: {} })],
      ["prt_a3", text("an answer: the exports are in src/")],
      ["prt_a4", stepFinish()],
    ])
    .message(OPENCODE_SESSION, "msg_c", userMsg("q"), [["prt_b1", text("a second question")]])
    .message(OPENCODE_SESSION, "msg_d", asstMsg("msg_c"), [["prt_b2", text("a second answer")]]);
}

/** Writers that hold a database locked until the matrix is done. */
const holders: Writer[] = [];

export async function closeOpencodeWriters(): Promise<void> {
  await Promise.all(holders.splice(0).map((w) => w.close()));
}

/**
 * A database whose newest rows are only in its -wal, as a running OpenCode leaves it: a
 * real SQLite (another process) commits them; the database and the -wal are copied while
 * it is open (SQLite removes the -wal when its last connection closes), without the -shm.
 */
async function withWalRows(db: string): Promise<void> {
  const build = join(db, "..", ".build");
  mkdirSync(build, { recursive: true });
  const src = await session().write(join(build, "opencode.db"));
  const w = await startWriter(src);
  try {
    await w.send({ op: "sql", sql: walMessage("msg_e", "prt_e1", "a reply only in the -wal") });
    copyFileSync(src, db);
    copyFileSync(`${src}-wal`, `${db}-wal`);
  } finally {
    await w.close();
    rmSync(build, { recursive: true, force: true });
  }
}

/** A message and its part as one transaction of statements, as OpenCode commits them. */
function walMessage(msg: string, part: string, words: string): Array<[string, unknown[]]> {
  const at = 1_765_000_000_000;
  return [
    ["INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?)", [msg, OPENCODE_SESSION, at, at, JSON.stringify(asstMsg("msg_c"))]],
    ["INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?,?)", [part, msg, OPENCODE_SESSION, at, at, JSON.stringify(text(words))]],
  ];
}

export interface OpencodeCase {
  name: string;
  about: string;
  /** A session the reader must open (`tree` may not refuse it). */
  opens: boolean;
  /** Writes opencode.db (and its -wal) into the data dir. */
  make(db: string): Promise<void>;
}

export const OPENCODE_CASES: readonly OpencodeCase[] = [
  {
    name: "opencode/corrupt",
    about: "opencode.db with its pages after the first overwritten by noise (malformed)",
    opens: false,
    async make(db) {
      await session().write(db);
      const bytes = readFileSync(db);
      let seed = 11;
      for (let i = 4096; i < bytes.length; i++) bytes[i] = (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
      writeFileSync(db, bytes);
    },
  },
  {
    name: "opencode/locked",
    about: "another process holds the write lock, its uncommitted 3 MB transaction spilled into the -wal (mid-write)",
    opens: true,
    async make(db) {
      await session().write(db);
      const w = await startWriter(db);
      holders.push(w);
      await w.send({ op: "sql", sql: walMessage("msg_e", "prt_e1", "a committed reply in the -wal") });
      // More than SQLite's page cache (2 MB): the open transaction's pages go to the -wal uncommitted.
      await w.send({ op: "hold", sql: walMessage("msg_f", "prt_f1", `uncommitted ${"x".repeat(3_000_000)}`) });
    },
  },
  {
    name: "opencode/no-shm",
    about: "rows only in opencode.db-wal, the -shm missing (a copy, or a crash)",
    opens: true,
    make: withWalRows,
  },
  {
    name: "opencode/truncated-wal",
    about: "opencode.db-wal cut in the middle of its last frame, no -shm",
    opens: true,
    async make(db) {
      await withWalRows(db);
      truncateSync(`${db}-wal`, statSync(`${db}-wal`).size - 1000);
    },
  },
  {
    name: "opencode/unknown-part",
    about: "a part of a type OpenCode does not have",
    opens: true,
    async make(db) {
      await session()
        .message(OPENCODE_SESSION, "msg_e", asstMsg("msg_c"), [["prt_e1", { type: "hologram", payload: { depth: 3 } }]])
        .write(db);
    },
  },
  {
    name: "opencode/bad-json",
    about: "a message's and a part's data JSON that does not parse, a part's that is an array",
    opens: true,
    async make(db) {
      await session()
        .add("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?)", ["msg_e", OPENCODE_SESSION, 1_765_000_000_000, 1_765_000_000_000, '{"role": "assistant", "par'])
        .add("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?,?)", ["prt_e1", "msg_e", OPENCODE_SESSION, 1_765_000_000_000, 1_765_000_000_000, "{not json"])
        .add("INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?,?,?,?,?,?)", ["prt_b3", "msg_d", OPENCODE_SESSION, 1_765_000_000_001, 1_765_000_000_001, "[1, 2]"])
        .write(db);
    },
  },
];
