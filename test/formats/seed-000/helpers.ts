import { sharedFolderGuard } from "../../helpers/fixtures";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { MemorySession } from "../../../src/core/session/memory-session";
import { openSession } from "../../../src/core/formats/registry";
import type { SessionReader } from "../../../src/core/session/session-reader";
import { seed000Format } from "../../../src/core/formats/seed-000/format";
import type { Seed000Line } from "../../../src/core/formats/seed-000/line";

/** Tiny factories for seed-000 lines, so each test states its session in a few lines. */
let clock = 1_770_000_000_000;

export type Line = Seed000Line & Record<string, unknown>;

function line(type: Seed000Line["type"], id: string, parentId: string | null, content: string, metadata?: Seed000Line["metadata"]): Line {
  clock += 1000;
  const e: Line = { id, parentId, timestamp: clock, type, content };
  if (metadata) e.metadata = metadata;
  return e;
}

export const user = (id: string, parentId: string | null, text: string, metadata?: Seed000Line["metadata"]) => line("user", id, parentId, text, metadata);
export const assistant = (id: string, parentId: string | null, text: string, metadata?: Seed000Line["metadata"]) => line("assistant", id, parentId, text, metadata);
export const toolCall = (id: string, parentId: string | null, name: string, input: unknown) => line("tool_call", id, parentId, JSON.stringify({ name, input }));
export const toolResult = (id: string, parentId: string | null, output: string) => line("tool_result", id, parentId, output);

/** A session held in memory, indexed by the format's own hooks. */
export function memory(records: ReadonlyArray<Record<string, unknown>>, path = "/sessions/demo.jsonl"): MemorySession {
  return new MemorySession(seed000Format.id, seed000Format.index, records, path);
}

/** A seed-000 file read as the CLI and the extension read it: the registry picks the format. */
export async function load(path: string): Promise<SessionReader> {
  const session = await openSession(path);
  if (session.formatId !== seed000Format.id) throw new Error(`${path}: read as ${session.formatId}, not ${seed000Format.id}`);
  return session;
}

/** The project's own small seed-000 fixtures (kept in the repo). */
export const OWN_FIXTURES = resolve(process.cwd(), "test", "fixtures", "seed-000");

/** The shared seed-000 fixtures and goldens (../shared, never copied into the project). */
export const SHARED_FIXTURES = resolve(process.env.ASE_SEED_FIXTURES ?? join(process.cwd(), "..", "shared", "fixtures", "seed-000"));

/** Call at the top of a test that reads ../shared: NOT RUN when missing, a failure under CI. */
export const needSeedFixtures = sharedFolderGuard("seed-000", SHARED_FIXTURES, "ASE_SEED_FIXTURES");
