import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, renameSync, statSync, writeSync } from "node:fs";

/**
 * A synthetic Codex rollout of a target size from the recorded ones (test/fixtures/codex):
 * the first rollout's session_meta, then the lines after the session_meta of every source
 * (turns, tool calls, reasoning, a compaction, usage records, events), in order, again
 * and again. Ordinals run on without a gap, as Codex numbers a thread's lines; the ids of
 * responses, calls and items get the round's number, so each round's are its own.
 */
export interface CodexGenerateOptions {
  sources: string[];
  targetBytes: number;
  out: string;
}

/** Fake model ids the recorder's server hands out (resp_fake0003, call_fake0002, ...). */
const FAKE_ID = /\b(resp|call|msg|fc|rs|ctc)_fake(\d+)/g;

export function generateCodexRollout(opts: CodexGenerateOptions): { bytes: number; lines: number } {
  if (existsSync(opts.out) && statSync(opts.out).size >= opts.targetBytes) return { bytes: statSync(opts.out).size, lines: -1 };
  let meta: Record<string, unknown> | undefined;
  const body: string[] = [];
  for (const file of opts.sources) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const o = JSON.parse(line) as Record<string, unknown>;
      if (o.type === "session_meta") {
        meta ??= o;
        continue;
      }
      delete o.ordinal;
      body.push(JSON.stringify(o));
    }
  }
  if (!meta || !body.length) throw new Error(`no Codex rollout lines in ${opts.sources.join(", ")}`);
  const temp = `${opts.out}.tmp`;
  const fd = openSync(temp, "w");
  let bytes = 0;
  let ordinal = 0;
  const write = (text: string) => {
    bytes += writeSync(fd, `${text}\n`);
  };
  try {
    write(JSON.stringify({ ...meta, ordinal: ordinal++ }));
    for (let round = 0; bytes < opts.targetBytes; round++) {
      for (const line of body) {
        // `{"ordinal":N,` first keeps the key where Codex writes it: after the timestamp is fine for a reader.
        write(`{"ordinal":${ordinal++},${line.slice(1).replace(FAKE_ID, (_m, kind: string, n: string) => `${kind}_r${round}x${n}`)}`);
        if (bytes >= opts.targetBytes) break;
      }
    }
  } finally {
    closeSync(fd);
  }
  renameSync(temp, opts.out);
  return { bytes, lines: ordinal };
}

/** The rollout compressed as Codex compresses cold ones (zstd level 3, the zstd command); undefined when there is no zstd. */
export function compressRollout(plain: string): string | undefined {
  const out = `${plain}.zst`;
  if (existsSync(out) && statSync(out).mtimeMs >= statSync(plain).mtimeMs) return out;
  const r = spawnSync("zstd", ["-3", "-q", "-f", plain, "-o", out]);
  return r.status === 0 ? out : undefined;
}
