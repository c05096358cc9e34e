// Drives the real Gemini CLI in its interactive UI inside a private tmux server, for the
// commands that exist only there (/rewind). Every step waits on what the screen or the
// session file shows, never on a fixed sleep: the machine running the recorder may be busy.
import { execFileSync } from "node:child_process";

const STEP_MS = 120_000;

function tmux(socket, args) {
  return execFileSync("tmux", ["-L", socket, ...args], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

/** Waits until `test()` returns a truthy value; throws `what` (a string or a function) after `ms`. */
export async function until(test, what, ms = STEP_MS) {
  const end = Date.now() + ms;
  for (;;) {
    const v = test();
    if (v) return v;
    if (Date.now() > end) throw new Error(`interactive gemini: timed out waiting for ${typeof what === "function" ? what() : what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Starts `bin` interactively in `cwd` with `env`; returns { screen, type, keys, waitFor, quit, close }.
 * `type` sends literal text, `keys` tmux key names (Enter, Up, C-u, ...).
 */
export async function startInteractive(bin, args, { cwd, env }) {
  try {
    execFileSync("tmux", ["-V"], { encoding: "utf8" });
  } catch {
    throw new Error("interactive gemini: tmux is not installed (apt-get install tmux); /rewind can only be recorded in the interactive UI");
  }
  const socket = `ase-gemini-${process.pid}-${Date.now()}`;
  const vars = Object.entries(env).filter(([k]) => /^(HOME|PATH|GEMINI_|GOOGLE_|NO_COLOR|TERM$|LANG)/.test(k)).map(([k, v]) => `${k}=${v}`);
  // `env` passes the variables to the CLI only, leaving the tmux server's own environment alone.
  tmux(socket, ["new-session", "-d", "-s", "g", "-x", "160", "-y", "50", "-c", cwd, "env", ...vars, bin, ...args]);
  const screen = () => {
    try {
      return tmux(socket, ["capture-pane", "-p", "-t", "g"]);
    } catch {
      return "";
    }
  };
  const session = {
    screen,
    type: (text) => tmux(socket, ["send-keys", "-t", "g", "-l", text]),
    keys: (...names) => tmux(socket, ["send-keys", "-t", "g", ...names]),
    waitFor: (re, what = String(re)) => until(() => re.test(screen()), () => `${what}; the screen shows:\n${screen()}`),
    /** Asks the CLI to quit and waits for it to exit. */
    quit: async () => {
      session.type("/quit");
      await session.waitFor(/\/quit/, "/quit typed");
      session.keys("Enter");
      await until(() => !screen(), "the CLI to exit after /quit");
    },
    close: () => {
      try {
        tmux(socket, ["kill-server"]);
      } catch {
        /* already gone */
      }
    },
  };
  await session.waitFor(/Type your message/, "the prompt box");
  return session;
}
