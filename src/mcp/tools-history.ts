import { isAbsolute, resolve } from "node:path";
import { z } from "zod";
import type { FileTouch } from "../core/history/file-touch";
import { clipText } from "../core/util/visible-text";
import { lookupFileHistory } from "../core/history/lookup";
import { arraySource, type PagedResults } from "./paging";
import { quoted, type StoreScope, ToolInputError } from "./stores";
import { cursorField, limitField } from "./tool-inputs";

/** An edit's old and new text are cut here in a list (the entry itself has them whole: get_context). */
const EDIT_TEXT_CHARS = 2000;

export const fileHistoryInput = () =>
  z.strictObject({
    path: z.string().min(1).max(4096).describe("the file's absolute path (any file: only the sessions' records of it are read, never the file)"),
    limit: limitField,
    cursor: cursorField,
  });

function touchItem(t: FileTouch) {
  const cut = (s: string | undefined) => (s === undefined ? {} : s.length > EDIT_TEXT_CHARS ? { text: clipText(s, EDIT_TEXT_CHARS), chars: s.length } : { text: s });
  const { oldText, newText, ...rest } = t;
  return { ...rest, ...(oldText !== undefined ? { oldText: cut(oldText) } : {}), ...(newText !== undefined ? { newText: cut(newText) } : {}) };
}

/** Every entry of every session in scope that read, wrote or edited a file, newest first. */
export async function fileHistory(scope: StoreScope, pages: PagedResults, args: z.infer<ReturnType<typeof fileHistoryInput>>) {
  if (!isAbsolute(args.path)) throw new ToolInputError(`path ${quoted(args.path)} is not absolute: the server cannot know which folder it is relative to`);
  const page = await pages.page("file_history", { ...args, path: resolve(args.path) }, async () => {
    // The same stores list_sessions reads (dirs, agents, environment), so no other store is
    // opened; every call re-checks the sessions' stamps (refreshAfterMs 0): an agent asking
    // about a file it just edited expects its own session in the answer.
    const touches = (await lookupFileHistory(resolve(args.path), { dirs: scope.dirs, only: scope.only, cacheDir: scope.cacheDir, env: scope.env, refreshAfterMs: 0 })).slice();
    touches.sort((a, b) => (b.timestamp ?? "").localeCompare(a.timestamp ?? ""));
    return { ...arraySource(touches.map(touchItem)), head: { path: resolve(args.path) } };
  });
  return { ...page.head, touches: page.items, offset: page.offset, total: page.total, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
