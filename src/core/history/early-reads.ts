import type { SessionSummary } from "../store/discover";
import type { ReadItem, ReadReply, TouchThread } from "./touch-thread";

/** What EarlyReads asks of a reader thread (TouchThread). */
export type EarlyThread = Pick<TouchThread, "failed" | "readShared">;

/** A session read while the stores were still being listed: what it was read as, and its answer to come. */
export interface EarlyRead {
  item: ReadItem;
  /** The thread that reads it. */
  thread: EarlyThread;
  size: number;
  mtimeMs: number;
  /** Its answer; rejected when the thread failed (the session is then read again). */
  reply: Promise<ReadReply>;
}

/**
 * The reader threads of a cold index put to work while the stores are listed (half a second
 * of a thousand sessions' heads, which this thread does alone): each session the listing
 * finds is offered, and each thread reads the largest offered so far, one at a time, until
 * the listing ends (stop). The index takes an early read's answer where the session it lists
 * in the end is the one read (the same file, stamp, cwd and format), else reads it again.
 */
export class EarlyReads {
  private readonly offered: SessionSummary[] = [];
  private readonly reads = new Map<string, EarlyRead>();
  private stopped = false;
  /** The threads reading nothing, waiting for the listing to find a session. */
  private readonly idle: EarlyThread[];

  /** `cap`: the largest session the index reads (larger ones are not offered to a thread). */
  constructor(
    threads: readonly EarlyThread[],
    private readonly cap: number,
  ) {
    this.idle = [...threads];
  }

  /** A session the listing found (ListOptions.onSummary). */
  offer(s: SessionSummary): void {
    if (this.stopped || s.size > this.cap) return;
    this.offered.push(s);
    const thread = this.idle.pop();
    if (thread) this.next(thread);
  }

  /** The listing is over: no read starts after this one; the reads started so far, by path. */
  stop(): Map<string, EarlyRead> {
    this.stopped = true;
    return this.reads;
  }

  private next(thread: EarlyThread): void {
    if (this.stopped || thread.failed) return;
    if (!this.offered.length) return void this.idle.push(thread);
    let k = 0;
    for (let j = 1; j < this.offered.length; j++) if (this.offered[j].size > this.offered[k].size) k = j;
    const [s] = this.offered.splice(k, 1);
    if (this.reads.has(s.path)) return this.next(thread);
    const item: ReadItem = { path: s.path, cwd: s.cwd, formatId: s.agent };
    const reply = readOne(thread, item);
    this.reads.set(s.path, { item, thread, size: s.size, mtimeMs: s.mtimeMs, reply });
    reply.then(
      () => this.next(thread),
      () => undefined,
    );
  }
}

/** One session read on `thread` (a share of one: SharedReads). */
function readOne(thread: EarlyThread, item: ReadItem): Promise<ReadReply> {
  let got: ReadReply | undefined;
  const claim = new Int32Array(new SharedArrayBuffer(4));
  claim[0] = 1;
  return thread.readShared({ items: [item], claim: claim.buffer as SharedArrayBuffer, first: 0 }, (_, r) => (got = r)).then(() => {
    if (!got) throw new Error("the history thread did not answer");
    return got;
  });
}
