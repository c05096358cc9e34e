import { sharedFolderGuard } from "../../helpers/fixtures";
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { clawdcodeIndexHooks } from "../../../src/core/formats/clawdcode/index-hooks";
import { MemorySession } from "../../../src/core/session/memory-session";
import type { StampedSession } from "../../../src/core/formats/clawdcode/compaction";
import { openSession } from "../../../src/core/formats/registry";

/** Tiny factories for clawdcode lines: each test states its session in a few lines. */

export type Raw = Record<string, unknown>;

export const SESSION_ID = "5e5a0002-test-4aaa-8aaa-000000000001";
export const CWD = "/home/ana/app";

let clock = Date.parse("2026-03-01T10:00:00.000Z");
function ts(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

function base(uuid: string, parentUuid: string | null, type: string): Raw {
  return { uuid, parentUuid, sessionId: SESSION_ID, timestamp: ts(), cwd: CWD, gitBranch: "main", version: "0.4.2", type };
}

export function user(uuid: string, parent: string | null, text: unknown, extra: Raw = {}): Raw {
  return { ...base(uuid, parent, "user"), message: { role: "user", content: text }, ...extra };
}

export function assistant(uuid: string, parent: string | null, text: unknown, usage?: { input_tokens: number; output_tokens: number }, model = "claude-sonnet-4-5"): Raw {
  return { ...base(uuid, parent, "assistant"), message: { role: "assistant", content: text, model, ...(usage ? { usage } : {}) } };
}

export function toolUse(uuid: string, parent: string | null, id: string, name: string, input: Raw): Raw {
  return { ...base(uuid, parent, "tool_use"), message: { role: "assistant", content: "" }, tool: { id, name, input } };
}

export function toolResult(uuid: string, parent: string | null, id: string, output: unknown, error?: string): Raw {
  return { ...base(uuid, parent, "tool_result"), message: { role: "user", content: "" }, toolResult: { id, output, ...(error ? { error } : {}) } };
}

export function system(uuid: string, parent: string | null, text: string): Raw {
  return { ...base(uuid, parent, "system"), message: { role: "system", content: text } };
}

export function boundary(uuid: string, parent: string | null, preTokens: number, extra: Raw = {}): Raw {
  return {
    ...base(uuid, parent, "system"),
    message: { role: "system", content: "Conversation compacted" },
    subtype: "compact_boundary",
    compactMetadata: { trigger: "manual", preTokens, postTokens: 10, ...extra },
  };
}

export function summary(uuid: string, parent: string, text: string): Raw {
  return { ...user(uuid, parent, text), isCompactSummary: true };
}

/**
 * Ten messages; the 20% cut (2) starts with a tool result whose call (t2) is summarized.
 * `workflow` is the path the first tool call writes.
 */
export function tenMessages(workflow = ".github/workflows/ci.yml"): Raw[] {
  return [
    user("u1", null, "Set up CI"),
    assistant("a1", "u1", "I'll add a workflow.", { input_tokens: 900, output_tokens: 12 }),
    toolUse("t1", "a1", "call_1", "write", { path: workflow }),
    toolResult("r1", "t1", "call_1", "written"),
    assistant("a2", "r1", "Workflow written.", { input_tokens: 1100, output_tokens: 5 }),
    user("u2", "a2", "Run it"),
    assistant("a3", "u2", "Running.", { input_tokens: 1200, output_tokens: 4 }),
    toolUse("t2", "a3", "call_2", "bash", { command: "act -j test" }),
    toolResult("r2", "t2", "call_2", "Job succeeded"),
    assistant("a4", "r2", "The test job passed.", { input_tokens: 1250, output_tokens: 7 }),
  ];
}

export function memory(records: Raw[], path = `/home/ana/.clawdcode/projects/-home-ana-app/${SESSION_ID}.jsonl`): MemorySession {
  return new MemorySession("clawdcode", clawdcodeIndexHooks, records, path);
}

/** A session file loaded as the registry loads it (detected, then the indexed JSONL reader), with its stamp. */
export async function loadFile(path: string): Promise<StampedSession> {
  const s = await openSession(path);
  assert.equal(s.formatId, "clawdcode", `${path} detected as ${s.formatId}`);
  assert.ok("stamp" in s, "a file session has a stamp");
  return s as StampedSession;
}

export function jsonl(records: Raw[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** The seed-002 fixtures and goldens in ../shared (never copied into the project). */
export const SEED_002_DIR = resolve(process.env.ASE_SEED_002 ?? join(process.cwd(), "..", "shared", "fixtures", "seed-002"));

/** Call at the top of a test that needs ../shared/fixtures/seed-002: NOT RUN when absent, a failure in CI. */
const needSeed002Files = sharedFolderGuard("seed-002", SEED_002_DIR, "ASE_SEED_002");
export const needSeed002 = (ctx: Mocha.Context): void => needSeed002Files(ctx, "branches.golden.json");
