import { type ChildProcess, spawn, spawnSync } from "node:child_process";

/**
 * A real SQLite writer in another process (Python's sqlite3 module, the system SQLite):
 * the tests need a WAL-mode database written the way OpenCode writes it, which the
 * WebAssembly SQLite we read with cannot do on disk. Commands on stdin, one per line.
 */

export const hasPython = (): boolean => spawnSync("python3", ["-c", "import sqlite3"], { stdio: "ignore" }).status === 0;

const SCRIPT = String.raw`
import sqlite3, sys, json
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=5)
db.execute("PRAGMA journal_mode=WAL")
db.execute("PRAGMA busy_timeout=5000")
db.execute("PRAGMA wal_autocheckpoint=" + sys.argv[2])
print("open", flush=True)
for line in sys.stdin:
    cmd = json.loads(line)
    if cmd["op"] == "sql":
        db.execute("BEGIN")
        for s in cmd["sql"]:
            db.execute(s[0], s[1])
        db.execute("COMMIT")
    elif cmd["op"] == "loop":
        for i in range(cmd["n"]):
            db.execute("BEGIN")
            db.execute("INSERT INTO t(v) VALUES (?)", (i,))
            if cmd.get("counter"): db.execute("UPDATE c SET n = n + 1")
            db.execute("COMMIT")
            if i % 50 == 0: print("wrote", i, flush=True)
    elif cmd["op"] == "hold":
        # An open write transaction, not committed: the database is locked for writers.
        db.execute("BEGIN IMMEDIATE")
        for s in cmd["sql"]:
            db.execute(s[0], s[1])
    elif cmd["op"] == "checkpoint":
        db.execute("PRAGMA wal_checkpoint(" + cmd["mode"] + ")")
    print("done", flush=True)
`;

export interface Writer {
  child: ChildProcess;
  /** Runs one command and resolves when the writer says done. */
  send(cmd: Record<string, unknown>): Promise<void>;
  /** Lines the writer printed so far. */
  out: string[];
  close(): Promise<void>;
}

/** Starts a writer on a database (WAL mode; autoCheckpoint 0 keeps every commit in the -wal). */
export async function startWriter(db: string, autoCheckpoint = 0): Promise<Writer> {
  const child = spawn("python3", ["-c", SCRIPT, db, String(autoCheckpoint)], { stdio: ["pipe", "pipe", "pipe"] });
  const out: string[] = [];
  let err = "";
  const waiters: Array<() => void> = [];
  let buf = "";
  child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  child.stdout?.on("data", (d: Buffer) => {
    buf += d.toString();
    for (let nl = buf.indexOf("\n"); nl !== -1; nl = buf.indexOf("\n")) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      out.push(line);
      if (line === "done" || line === "open") waiters.shift()?.();
    }
  });
  const next = () =>
    new Promise<void>((resolve, reject) => {
      waiters.push(resolve);
      child.once("exit", (code) => reject(new Error(`writer exited (${code}): ${err}`)));
    });
  await next();
  return {
    child,
    out,
    send(cmd) {
      const p = next();
      child.stdin?.write(`${JSON.stringify(cmd)}\n`);
      return p;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin?.end();
      }),
  };
}
