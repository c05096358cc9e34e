import { StaleSessionError } from "../core/session/jsonl-session";
import type { LiveSession } from "./live-session";

export interface TailHost {
  /** The session the explorer shows (undefined while none is loaded). */
  session(): LiveSession | undefined;
  /** Entries may have been added: tell the webview (the live tail follows the default leaf). */
  changed(): void;
  /** The file was rewritten or shrunk: load it again from the start; resolves when loaded. */
  reload(err: StaleSessionError): Promise<void>;
  /** A refresh failed otherwise (the file is gone, unreadable). */
  failed(err: Error): void;
}

/**
 * Keeps the shown session up to date with its file while the explorer is open:
 * appended lines are read from the last indexed offset, one refresh at a time, and a
 * change reported during a refresh runs one more after it (a file written in bursts
 * costs two reads, not one per write). Reading the rest of a first look counts as a
 * refresh: changes wait for it.
 */
export class LiveTail {
  private running = false;
  private again = false;

  constructor(private readonly host: TailHost) {}

  /** The file changed (the watcher said so, or an action wants the freshest copy). */
  async fileChanged(): Promise<void> {
    if (!this.host.session()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.again = false;
        const s = this.host.session();
        if (!s) return;
        try {
          await s.refresh();
        } catch (err) {
          if (!(err instanceof StaleSessionError)) throw err;
          await this.host.reload(err);
          continue;
        }
        this.host.changed();
      } while (this.again);
    } catch (err) {
      this.host.failed(err as Error);
    } finally {
      this.running = false;
    }
  }

  /**
   * Runs other reading of the file (the rest after a first look) as a refresh would:
   * changes meanwhile wait, and are read once it is done. Called during a refresh (a
   * reload reads a first part and then the rest), it runs inside that refresh.
   */
  async whileReading(work: () => Promise<void>): Promise<void> {
    if (this.running) return work();
    this.running = true;
    try {
      await work();
    } finally {
      this.running = false;
    }
    if (this.again) void this.fileChanged();
  }
}
