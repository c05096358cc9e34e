import { openSession } from "../core/formats/registry";
import { forkPointWords } from "../core/formats/title-facts";
import type { SessionSummary } from "../core/store/discover";
import type { Log } from "./log";

/**
 * Where each listed fork was made, in words ("Try the old build"), for its title: a fork
 * is read whole to find its last copied entry, so forks are read in the background, one
 * at a time, and the view is redrawn with what was found.
 */
export class ForkPoints {
  /** By path, mtime and size; null: nothing found (no copied entry, or the file could not be read). */
  private readonly known = new Map<string, string | null>();
  private queue: SessionSummary[] = [];
  private running = false;
  private redraw: NodeJS.Timeout | undefined;

  constructor(
    private readonly log: Log,
    /** Called (batched) when words were found, so the rows are drawn again. */
    private readonly found: () => void,
  ) {}

  /** The words when known; else undefined, and the fork is queued. */
  words(s: SessionSummary): string | undefined {
    const hit = this.known.get(key(s));
    if (hit !== undefined) return hit ?? undefined;
    if (!this.queue.some((x) => x.path === s.path)) this.queue.push(s);
    if (!this.running) void this.readAll();
    return undefined;
  }

  private async readAll(): Promise<void> {
    this.running = true;
    try {
      for (let f = this.queue.shift(); f; f = this.queue.shift()) {
        try {
          this.known.set(key(f), forkPointWords(await openSession(f.path)) ?? null);
        } catch (err) {
          this.known.set(key(f), null);
          this.log.warn(`where ${f.path} was forked: ${(err as Error).message}`);
        }
        clearTimeout(this.redraw);
        this.redraw = setTimeout(this.found, 250);
      }
    } finally {
      this.running = false;
    }
  }

  dispose(): void {
    clearTimeout(this.redraw);
    this.queue = [];
  }
}

const key = (s: SessionSummary) => `${s.path}\0${s.mtimeMs}:${s.size}`;
