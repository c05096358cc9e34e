import type { IndexHooks } from "../store/index-hooks";
import { claudeCodeIndexHooks } from "./claude-code/index-hooks";
import { clawdcodeIndexHooks } from "./clawdcode/index-hooks";
import { codexIndexHooks } from "./codex/index-hooks";
import { piIndexHooks } from "./pi/index-hooks";
import { seed000IndexHooks } from "./seed-000/index-hooks";

/**
 * Every format's line hooks by format id: a worker thread that indexes half a file gets
 * the id, not the hooks (functions do not cross threads). Kept apart from the registry so
 * the worker's bundle holds the indexers and nothing else of the formats.
 */
const HOOKS: ReadonlyMap<string, IndexHooks> = new Map(
  [
    piIndexHooks,
    seed000IndexHooks,
    clawdcodeIndexHooks,
    claudeCodeIndexHooks,
    codexIndexHooks,
  ].map((h) => [h.formatId, h]),
);

export function hooksFor(formatId: string): IndexHooks {
  const h = HOOKS.get(formatId);
  if (!h) throw new Error(`no session format "${formatId}"`);
  return h;
}
