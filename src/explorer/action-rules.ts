import type { EntryAction } from "../protocol";

/** Actions that write to the session file: refused on a read-only session (old version, untrusted workspace). */
export const WRITING_ACTIONS: ReadonlySet<EntryAction> = new Set<EntryAction>(["continue", "label", "compact"]);

/**
 * Why the webview's action on an entry may not run, or undefined when it may. The
 * webview disables what it must not offer; the host checks again, as a message can
 * name any id or action.
 */
export function actionRefusal(action: EntryAction, entryExists: boolean, readOnly: boolean): string | undefined {
  if (!entryExists) return "no such entry in this session (it may have been reloaded)";
  if (readOnly && WRITING_ACTIONS.has(action)) return "the session is read-only (an old session version, or the workspace is not trusted)";
  return undefined;
}
