import { strict as assert } from "node:assert";
import { EarlyReads, type EarlyThread } from "../../src/core/history/early-reads";
import type { ReadReply, SharedReads } from "../../src/core/history/touch-thread";
import type { SessionSummary } from "../../src/core/store/discover";

/** A reader thread that answers when told: the reads it was asked, in order. */
class StandIn implements EarlyThread {
  failed = false;
  asked: string[] = [];
  private waiting: Array<() => void> = [];
  readShared(shared: SharedReads, onItem: (item: number, got: ReadReply) => void): Promise<void> {
    const k = shared.first;
    const { path } = shared.items[k];
    this.asked.push(path);
    return new Promise((resolve, reject) =>
      this.waiting.push(() => {
        if (this.failed) return reject(new Error("the history thread stopped"));
        onItem(k, { rows: `rows of ${path}`, paths: [path] });
        resolve();
      }),
    );
  }
  /** Answers the read it holds (the next starts when the promise's handlers run). */
  async answer(): Promise<void> {
    this.waiting.shift()?.();
    await new Promise((r) => setImmediate(r));
  }
}

function summary(path: string, size: number): SessionSummary {
  return { path, size, mtimeMs: 1, agent: "pi", cwd: "/w" } as SessionSummary;
}

describe("per-file history: sessions read while the stores are listed (EarlyReads)", () => {
  it("each thread reads one session at a time, the largest offered so far, until the listing ends", async () => {
    const [a, b] = [new StandIn(), new StandIn()];
    const early = new EarlyReads([a, b], 1000);
    early.offer(summary("s1", 10));
    early.offer(summary("s2", 20));
    // Both threads busy: these wait for one of them.
    early.offer(summary("s3", 30));
    early.offer(summary("big", 5000));
    early.offer(summary("s4", 40));
    assert.deepEqual([b.asked, a.asked], [["s1"], ["s2"]]);
    await a.answer();
    assert.deepEqual(a.asked, ["s2", "s4"], "the largest offered, past the one over the cap");
    await b.answer();
    assert.deepEqual(b.asked, ["s1", "s3"]);
    const reads = early.stop();
    await a.answer();
    await b.answer();
    assert.deepEqual([a.asked.length, b.asked.length], [2, 2], "no read starts after the listing ended");
    assert.deepEqual([...reads.keys()].sort(), ["s1", "s2", "s3", "s4"]);
    const got = await reads.get("s3")?.reply;
    assert.deepEqual(got, { rows: "rows of s3", paths: ["s3"] });
    assert.equal(reads.get("s4")?.thread, a);
  });

  it("a thread left idle starts again at the next session found; a failed one is given none, its read rejected", async () => {
    const [a, b] = [new StandIn(), new StandIn()];
    const early = new EarlyReads([a, b], 1000);
    early.offer(summary("s1", 10));
    await b.answer();
    assert.deepEqual(b.asked, ["s1"]);
    early.offer(summary("s2", 10));
    early.offer(summary("s3", 10));
    assert.deepEqual([a.asked, b.asked], [["s3"], ["s1", "s2"]]);
    b.failed = true;
    await b.answer();
    early.offer(summary("s4", 10));
    assert.deepEqual(a.asked, ["s3"], "s4 waits for a: b failed");
    await a.answer();
    assert.deepEqual([a.asked, b.asked], [["s3", "s4"], ["s1", "s2"]]);
    const reads = early.stop();
    await assert.rejects(reads.get("s2")?.reply as Promise<ReadReply>, /stopped/);
  });
});
