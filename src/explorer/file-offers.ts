import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { FileActivity } from "../core/session/session-format";
import type { FileActivityView } from "../protocol";

/** What the host may do with a path the webview asks to open. */
export type FileToOpen =
  | { kind: "open"; path: string }
  /** The file list never offered it: the webview may only open what it was shown. */
  | { kind: "notOffered" }
  /** Offered once, but not on this machine (any more). */
  | { kind: "missing" };

export interface FileLocations {
  /** The session's working directory (relative paths in the session are relative to it). */
  cwd(): string;
  /** Other folders a relative path may be under (the workspace folders). */
  folders(): readonly string[];
  /** Whether a path exists; the file system unless a test says otherwise. */
  exists?(path: string): boolean;
}

/**
 * The files of the selected path as the file list shows them, each openable when it
 * is on this machine; remembers what it offered, the only paths the webview may open.
 */
export class FileOffers {
  private readonly offered = new Set<string>();

  constructor(private readonly where: FileLocations) {}

  /** Where a path the session names is on this machine: absolute as is, relative under the cwd or a folder. */
  locate(p: string): string | undefined {
    const exists = this.where.exists ?? existsSync;
    const candidates = isAbsolute(p) ? [p] : [join(this.where.cwd(), p), ...this.where.folders().map((f) => join(f, p))];
    return candidates.find((c) => exists(c));
  }

  offer(activity: readonly FileActivity[]): FileActivityView[] {
    const files = activity.map((a) => ({ ...a, openable: this.locate(a.path) !== undefined }));
    for (const f of files) if (f.openable) this.offered.add(f.path);
    return files;
  }

  toOpen(p: string): FileToOpen {
    if (!this.offered.has(p)) return { kind: "notOffered" };
    const found = this.locate(p);
    return found ? { kind: "open", path: found } : { kind: "missing" };
  }
}
