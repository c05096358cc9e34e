import type { EntryAction } from "../protocol";

/**
 * Why the webview's action on an entry may not run, or undefined when it may. The
 * webview disables what the session info says is unavailable; the host checks again, as
 * a message can name any id or action.
 */
export function actionRefusal(action: EntryAction, entryExists: boolean, unavailable: Partial<Record<EntryAction, string>>): string | undefined {
  if (!entryExists) return "no such entry in this session (it may have been reloaded)";
  return unavailable[action];
}
