import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as cc from "../formats/claude-code/lines";
import * as cl from "../formats/clawdcode/lines";
import * as seed from "../formats/seed-000/helpers";
import { assistant, bash, entry, header, tempDir, toolResult, user, writeSession } from "./session-builder";

/** One small session of each format in its agent's store layout, for the search tests. */
export interface Stores {
  /** pi's sessions dir (`--dir D`). */
  pi: string;
  /** Claude Code's root (`--dir claude-code=D`): D/projects/<project>/<id>.jsonl. */
  claudeCode: string;
  /** The clawdcode root (`--dir clawdcode=D`). */
  clawdcode: string;
  piFile: string;
  ccFile: string;
  clFile: string;
  /** A seed-000 file (no store: searched by path only). */
  seedFile: string;
}

function write(path: string, text: string, mtime: Date): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  utimesSync(path, mtime, mtime);
  return path;
}

/** mtimes: pi newest, then Claude Code, clawdcode, seed-000 (the order a search reads them). */
export function buildStores(): Stores {
  const base = tempDir();
  const pi = join(base, "pi-sessions");
  const piDir = join(pi, "--home-ana-proj--");
  mkdirSync(piDir, { recursive: true });
  const piFile = writeSession(
    [
      header({ cwd: "/home/ana/proj" }),
      user("p1", null, "Please refactor the Frobnicator module"),
      assistant("p2", "p1", "I will read frobnicator.ts first", { toolCalls: [{ id: "call1", name: "read", arguments: { path: "src/frobnicator.ts" } }] }),
      toolResult("p3", "p2", "call1", "read", "export class Frobnicator {}\nexport const size = 42;"),
      bash("p4", "p3", "grep -rn frobnicate src", "src/a.ts:1: frobnicate()"),
      entry("compaction", "p5", "p4", { summary: "Refactored the frobnicator into two files", firstKeptEntryId: "p3", tokensBefore: 1000 }),
    ],
    { dir: piDir, name: "2026-01-01T00-00-00-000Z_11111111.jsonl" },
  );
  utimesSync(piFile, new Date("2026-03-04T00:00:00Z"), new Date("2026-03-04T00:00:00Z"));
  const claudeCode = join(base, "claude");
  const ccFile = write(
    join(claudeCode, "projects", "-home-dev-demo", `${cc.SESSION}.jsonl`),
    cc.jsonl([
      cc.user("c1", null, "Where is the uuid of a frobnicator kept?"),
      cc.fragment("c2", "c1", "msg_1", cc.text("The Frobnicator keeps it in memory.")),
      cc.fragment("c3", "c2", "msg_1", cc.toolUse("tu1", "Grep", { pattern: "frobnicate", path: "src" })),
      cc.toolResult("c4", "c3", "tu1", "src/frob.ts:3: frobnicate(uuid)"),
      cc.boundary("c5", "c4"),
      cc.compactSummary("c6", "c5", "We looked for the frobnicator."),
    ]),
    new Date("2026-03-03T00:00:00Z"),
  );
  const clawdcode = join(base, "clawd");
  const clFile = write(
    join(clawdcode, "projects", "-home-ana-app", `${cl.SESSION_ID}.jsonl`),
    cl.jsonl([
      cl.user("u1", null, "Set up the frobnicator CI"),
      cl.assistant("a1", "u1", "Adding a workflow for the frobnicator."),
      cl.toolUse("t1", "a1", "call_1", "write", { path: ".github/workflows/frobnicator.yml" }),
      cl.toolResult("r1", "t1", "call_1", "written frobnicator.yml"),
      cl.boundary("b1", "r1", 5000),
      cl.summary("s1", "b1", "Summary: the frobnicator CI was set up"),
    ]),
    new Date("2026-03-02T00:00:00Z"),
  );
  const seedFile = write(
    join(base, "seed", "demo.jsonl"),
    [
      seed.user("s1", null, "Run the frobnicator tests", { cwd: "/home/bo/seedproj" }),
      seed.toolCall("s2", "s1", "bash", { command: "npm test -- frobnicator" }),
      seed.toolResult("s3", "s2", "1 passing (frobnicator)"),
      seed.assistant("s4", "s3", "All frobnicator tests pass."),
    ]
      .map((l) => JSON.stringify(l))
      .join("\n") + "\n",
    new Date("2026-03-01T00:00:00Z"),
  );
  return { pi, claudeCode, clawdcode, piFile, ccFile, clFile, seedFile };
}

/** The dirs option that searches the three stores and nothing of the machine's own. */
export function storeDirs(s: Stores): Record<string, string> {
  return { pi: s.pi, "claude-code": s.claudeCode, clawdcode: s.clawdcode };
}
