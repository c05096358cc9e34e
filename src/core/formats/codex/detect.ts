import { basename } from "node:path";
import type { FirstLines } from "../../session/session-format";
import { asObj, isRolloutName, str } from "./lines";

/**
 * Whether a file is a Codex rollout: its first line is a `session_meta` line with a
 * payload id (docs/codex-format.md section 2), or it is a `rollout-*.jsonl.zst` file,
 * whose compressed head cannot be parsed here (the load decompresses it).
 */
export function detectCodex(first: FirstLines): boolean {
  if (/\.jsonl\.zst$/.test(first.path) && isRolloutName(basename(first.path))) return true;
  const head = asObj(first.objects.find((o) => o !== undefined));
  if (!head || head.type !== "session_meta") return false;
  return !!str(asObj(head.payload)?.id);
}
