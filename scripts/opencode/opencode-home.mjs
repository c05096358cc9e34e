// One throw-away OpenCode installation for one scenario: a neutral HOME with all four XDG
// folders under it, a git project with one fixed commit (so the project id is stable), a
// global opencode.json whose only provider is our fake chat server, and helpers to run
// `opencode run`, `opencode serve` and read the database (sqlite3 CLI, read-only).
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MODEL } from "./fake-chat.mjs";

const GIT_ENV = { GIT_AUTHOR_NAME: "ase", GIT_AUTHOR_EMAIL: "ase@example.invalid", GIT_COMMITTER_NAME: "ase", GIT_COMMITTER_EMAIL: "ase@example.invalid", GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z", GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z" };

/** The opencode.json of a scenario: the fake provider, every permission allowed. */
export function config(port, { limit = { context: 200000, output: 8000 }, extra = {} } = {}) {
  return {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    model: `fake/${MODEL}`,
    small_model: `fake/${MODEL}`,
    permission: "allow",
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: `http://127.0.0.1:${port}/v1`, apiKey: "fake-key" },
        models: { [MODEL]: { name: "Fake Model", tool_call: true, reasoning: true, cost: { input: 3, output: 15, cache_read: 0.3 }, limit } },
      },
    },
    ...extra,
  };
}

export class OpenCodeHome {
  /** `dir` is created empty by the caller; `bin` the opencode executable. */
  constructor(dir, bin, port, options) {
    this.bin = bin;
    this.home = join(dir, "home");
    this.project = join(dir, "project");
    this.data = join(this.home, ".local", "share", "opencode");
    mkdirSync(join(this.home, ".config", "opencode"), { recursive: true });
    mkdirSync(this.project, { recursive: true });
    writeFileSync(join(this.project, "notes.txt"), "alpha\nbeta\n");
    const git = (...args) => execFileSync("git", args, { cwd: this.project, env: { ...process.env, ...GIT_ENV }, stdio: "ignore" });
    git("init", "-q", "-b", "main");
    git("add", "notes.txt");
    git("commit", "-q", "-m", "notes");
    this.writeConfig(port, options);
  }

  writeConfig(port, options) {
    writeFileSync(join(this.home, ".config", "opencode", "opencode.json"), JSON.stringify(config(port, options), null, 1) + "\n");
  }

  get env() {
    const h = this.home;
    return {
      PATH: process.env.PATH,
      HOME: h,
      XDG_DATA_HOME: join(h, ".local", "share"),
      XDG_CONFIG_HOME: join(h, ".config"),
      XDG_CACHE_HOME: join(h, ".cache"),
      XDG_STATE_HOME: join(h, ".local", "state"),
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_SHARE: "1",
      TZ: "UTC",
      LANG: "C.UTF-8",
    };
  }

  /** `opencode <args>` in the project; rejects with its output when it exits non-zero. */
  run(args, bin = this.bin) {
    return new Promise((done, fail) => {
      const child = execFile(bin, args, { cwd: this.project, env: this.env, encoding: "utf8", timeout: 300_000, maxBuffer: 1 << 26 }, (err, out, errOut) =>
        err ? fail(new Error(`opencode ${args.join(" ")} failed (${err.code ?? err.signal}):\n${String(out).slice(-1500)}\n${String(errOut).slice(-1500)}`)) : done(out),
      );
      child.stdin.end();
    });
  }

  /** Rows of a query on the data dir's database, read-only (no checkpoint on close). */
  sql(query, db = join(this.data, "opencode.db")) {
    const out = execFileSync("sqlite3", ["-readonly", "-json", db, query], { encoding: "utf8" });
    return out.trim() ? JSON.parse(out) : [];
  }

  /** Sessions in creation order. */
  sessions() {
    return this.sql("select id, parent_id as parentId, title from session order by time_created, id");
  }

  /** Starts `opencode serve` on 127.0.0.1; resolves to { url, stop() } once it listens. */
  serve() {
    const child = spawn(this.bin, ["serve", "--hostname", "127.0.0.1", "--port", "0"], { cwd: this.project, env: this.env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    const stop = () =>
      new Promise((ok) => {
        if (child.exitCode !== null) return ok();
        child.once("exit", () => ok());
        child.kill("SIGTERM");
      });
    return new Promise((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`opencode serve did not print its address in 120 s:\n${out}`)), 120_000);
      const seen = (d) => {
        out += d;
        const m = out.match(/https?:\/\/127\.0\.0\.1:\d+/);
        if (m) {
          clearTimeout(timer);
          ok({ url: m[0], stop });
        }
      };
      child.stdout.on("data", seen);
      child.stderr.on("data", seen);
      child.on("exit", (code) => fail(new Error(`opencode serve exited ${code}:\n${out}`)));
    });
  }
}
