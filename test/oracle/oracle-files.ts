import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { tempDir } from "../helpers/session-builder";
import type { Pi, PiEntry, PiSessionManager } from "./pi";

/** Seeds per run: a fixed few in CI, ASE_ORACLE_SEEDS=N for a long run (ASE_ORACLE_SEED picks the first). */
export const SEEDS = Number(process.env.ASE_ORACLE_SEEDS) || 16;
export const FIRST_SEED = Number(process.env.ASE_ORACLE_SEED) || 1;

export function seeds(): number[] {
  return Array.from({ length: SEEDS }, (_, k) => FIRST_SEED + k);
}

/**
 * pi opened on its own copy of a file: pi's SessionManager rewrites files it migrates
 * (version 1 and 2), so it is never given the file we read.
 */
export function piOpen(pi: Pi, file: string): { sm: PiSessionManager; entries: PiEntry[]; byId: Map<string, PiEntry> } {
  const dir = tempDir();
  const copy = join(dir, basename(file));
  copyFileSync(file, copy);
  const sm = pi.SessionManager.open(copy, dir);
  const entries = sm.getEntries();
  const byId = new Map<string, PiEntry>();
  for (const e of entries) byId.set(e.id, e);
  return { sm, entries, byId };
}

/** Writes text to a new file in a temp dir. */
export function writeTemp(name: string, text: string): string {
  const file = join(tempDir(), name);
  writeFileSync(file, text);
  return file;
}

/** A file that made a check fail is kept in test-artifacts/oracle (temp dirs go at the end of the run). */
export function keepForLater(file: string, name: string): string {
  const dir = resolve("test-artifacts", "oracle");
  mkdirSync(dir, { recursive: true });
  const out = join(dir, `${name.replace(/[^A-Za-z0-9_-]+/g, "-")}.jsonl`);
  copyFileSync(file, out);
  return out;
}
