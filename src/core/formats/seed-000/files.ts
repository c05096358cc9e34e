import type { FileActivity } from "../../session/session-format";
import type { SessionReader } from "../../session/session-reader";
import { FileTally } from "../../session/file-tally";
import { parseToolCall } from "./line";

/**
 * The seed's file tools, by the names its sessions use (read_file, write_file, edit_file:
 * ASSUMPTION, 15.1 names no tools). Any other tool (grep, run, run_test) touches no file
 * we can name.
 */
export const FILE_TOOLS: Readonly<Record<string, "read" | "written" | "edited">> = { read_file: "read", write_file: "written", edit_file: "edited" };

function pathArg(input: unknown): string | undefined {
  if (!input || typeof input !== "object") return undefined;
  const o = input as Record<string, unknown>;
  const p = o.path ?? o.file_path;
  return typeof p === "string" && p ? p : undefined;
}

/** Files read, written and edited by the tool calls at these positions, in the order first touched. */
export function seed000Files(session: SessionReader, positions: readonly number[]): FileActivity[] {
  const tally = new FileTally();
  for (const i of positions) {
    const meta = session.metas[i];
    if (meta.type !== "tool_call") continue;
    const content = session.entryAt(i).content;
    const call = typeof content === "string" ? parseToolCall(content) : undefined;
    const kind = call && FILE_TOOLS[call.name];
    const path = call && pathArg(call.input);
    if (!kind || !path) continue;
    tally.touch(path, meta.id)[kind]++;
  }
  return tally.list();
}
