import { isSessionContext, type NativeContent, nativeContents } from "./native-context";
import type { Replay, ReplayNode } from "./replay";

/** The messages on the path from the root to `leafKey` (default: the current list's end). */
export function pathTo(r: Replay, leafKey?: string): ReplayNode[] {
  const byKey = new Map(r.nodes.map((n) => [n.key, n]));
  if (leafKey === undefined) return r.current.map((k) => byKey.get(k)!).filter(Boolean);
  const path: ReplayNode[] = [];
  for (let n = byKey.get(leafKey); n; n = n.parentKey === null ? undefined : byKey.get(n.parentKey)) path.push(n);
  return path.reverse();
}

/** What Gemini CLI sends for the session (or a leaf of it), the stored session context first. */
export function sessionContents(r: Replay, leafKey?: string): NativeContent[] {
  const path = pathTo(r, leafKey);
  const ctx = path.find((n) => isSessionContext(n.message));
  return nativeContents(path.filter((n) => n !== ctx), ctx);
}
