import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as cc from "../formats/claude-code/lines";
import * as cx from "../formats/codex/helpers";
import { assistant, header, tempDir, toolResult, user, writeSession } from "./session-builder";

/** Two checkouts of one repository (the same remote, spelt two ways) and the stores of three agents. */
export interface HistoryWorld {
  base: string;
  /** The checkout the tests look files up in. */
  main: string;
  /** Another clone of the same repository. */
  other: string;
  dirs: Record<string, string>;
  piFile: string;
  ccFile: string;
  codexFile: string;
  env: NodeJS.ProcessEnv;
}

/** A checkout: a .git folder with a config naming its remote, and a src folder. */
export function checkout(dir: string, remote: string): void {
  mkdirSync(join(dir, ".git"), { recursive: true });
  writeFileSync(join(dir, ".git", "config"), `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  writeFileSync(join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(dir, "src"), { recursive: true });
}

export function buildHistoryWorld(): HistoryWorld {
  const base = tempDir();
  const main = join(base, "work", "proj");
  const other = join(base, "clones", "proj-2");
  checkout(main, "git@github.com:ana/proj.git");
  checkout(other, "https://github.com/ana/proj");
  writeFileSync(join(main, "src", "app.ts"), "export const greeting = 'hello';\nexport const n = 1;\n");

  // pi: reads src/app.ts, then edits it (relative paths, against the session's cwd).
  const piDir = join(base, "pi", "--proj--");
  mkdirSync(piDir, { recursive: true });
  const piFile = writeSession(
    [
      header({ cwd: main, timestamp: "2026-05-01T10:00:00.000Z" }),
      { ...user("p1", null, "Greet in English please"), timestamp: "2026-05-01T10:00:01.000Z" },
      { ...assistant("p2", "p1", "", { toolCalls: [{ id: "c1", name: "read", arguments: { path: "src/app.ts" } }] }), timestamp: "2026-05-01T10:00:02.000Z" },
      { ...toolResult("p3", "p2", "c1", "read", "export const greeting = 'hallo';"), timestamp: "2026-05-01T10:00:03.000Z" },
      { ...assistant("p4", "p3", "", { toolCalls: [{ id: "c2", name: "edit", arguments: { path: "src/app.ts", oldText: "'hallo'", newText: "'hello'" } }] }), timestamp: "2026-05-01T10:00:04.000Z" },
      { ...toolResult("p5", "p4", "c2", "edit", "ok"), timestamp: "2026-05-01T10:00:05.000Z" },
    ],
    { dir: piDir, name: "2026-05-01T10-00-00-000Z_pi.jsonl" },
  );

  // Claude Code, in the other clone: writes src/app.ts by absolute path, and src/other.ts.
  const ccDir = join(base, "claude", "projects", "-clones-proj-2");
  mkdirSync(ccDir, { recursive: true });
  const ccFile = join(ccDir, `${cc.SESSION}.jsonl`);
  const env = { cwd: other };
  writeFileSync(
    ccFile,
    cc.jsonl([
      { ...cc.user("u1", null, "Start the app file over", env), timestamp: "2026-04-01T09:00:00.000Z" },
      { ...cc.fragment("a1", "u1", "msg_1", cc.toolUse("tu1", "Write", { file_path: join(other, "src", "app.ts"), content: "export const n = 1;\n" }), env), timestamp: "2026-04-01T09:00:01.000Z" },
      { ...cc.toolResult("r1", "a1", "tu1", "written", env), timestamp: "2026-04-01T09:00:02.000Z" },
      { ...cc.fragment("a2", "r1", "msg_2", cc.toolUse("tu2", "Edit", { file_path: join(other, "src", "other.ts"), old_string: "a", new_string: "b" }), env), timestamp: "2026-04-01T09:00:03.000Z" },
    ]),
  );

  // Codex, in the main checkout: an apply_patch that updates src/app.ts.
  const codexHome = join(base, "codex");
  const day = join(codexHome, "sessions", "2026", "06", "01");
  mkdirSync(day, { recursive: true });
  const patch = "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-export const n = 0;\n+export const n = 1;\n*** End Patch\n";
  const codexFile = cx.writeRollout(day, cx.THREAD, [
    cx.meta(cx.THREAD, { cwd: main }),
    { ...cx.msg(1, "user", "Bump n to one"), timestamp: "2026-06-01T08:00:00.000Z" },
    { timestamp: "2026-06-01T08:00:01.000Z", ordinal: 2, type: "response_item", payload: { type: "custom_tool_call", id: "ctc_1", status: "completed", call_id: "call_1", name: "apply_patch", input: patch } },
  ]);
  return { base, main, other, dirs: { pi: join(base, "pi"), "claude-code": join(base, "claude"), codex: codexHome }, piFile, ccFile, codexFile, env: { HOME: join(base, "home") } };
}
