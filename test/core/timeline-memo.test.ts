import { strict as assert } from "node:assert";
import { Session } from "../../src/core/formats/pi/pi-session";
import type { SessionFormat } from "../../src/core/session/session-format";
import { contextTimeline, contextTimelineAsync, timelineMemo } from "../../src/core/usage/timeline";
import { assistant, entry, header, user, writeSession } from "../helpers/session-builder";

// An export computes the context growth of several branches of one session (issue 30): with
// a memo, a stretch between compactions that two branches share is read once, and every
// timeline is the one computed alone.

const usage = (input: number, output: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output });

async function twoBranches(): Promise<Session> {
  return Session.load(
    writeSession([
      header(),
      user("u1", null, "hello ".repeat(100)),
      assistant("a1", "u1", "one", { usage: usage(1000, 50) }),
      user("u2", "a1", "more"),
      assistant("a2", "u2", "two", { usage: usage(0, 0) }),
      entry("compaction", "c1", "a2", { summary: "s".repeat(400), firstKeptEntryId: "u2", tokensBefore: 9000 }),
      user("u3", "c1", "left"),
      assistant("a3", "u3", "l", { usage: usage(0, 0) }),
      entry("compaction", "c2", "a3", { summary: "t".repeat(300), firstKeptEntryId: "u3", tokensBefore: 8000 }),
      user("u4", "c2", "after the second"),
      assistant("a4", "u4", "x", { usage: usage(0, 0) }),
      user("u5", "c1", "right"),
      assistant("a5", "u5", "r", { usage: usage(0, 0) }),
    ]),
  );
}

/** Counts the format's context reads while fn runs. */
async function contextReads<T>(format: SessionFormat, fn: () => Promise<T>): Promise<{ value: T; reads: number }> {
  const real = format.context;
  let reads = 0;
  (format as { context: SessionFormat["context"] }).context = (s, leaf) => {
    reads++;
    return real.call(format, s, leaf);
  };
  try {
    return { value: await fn(), reads };
  } finally {
    (format as { context: SessionFormat["context"] }).context = real;
  }
}

describe("context timelines sharing a memo (core/usage/timeline.ts)", () => {
  it("each branch's timeline is the one computed alone; the stretch both branches share is read once", async () => {
    const s = await twoBranches();
    const leaves = ["a4", "a5"].map((id) => s.requireIndex(id));
    const alone = leaves.map((l) => contextTimeline(s, l));
    const without = await contextReads(s.format, async () => Promise.all(leaves.map((l) => contextTimelineAsync(s, l))));
    const memo = timelineMemo();
    const withMemo = await contextReads(s.format, async () => {
      const out = [];
      for (const l of leaves) out.push(await contextTimelineAsync(s, l, { memo }));
      return out;
    });
    assert.deepEqual(withMemo.value, alone);
    assert.deepEqual(without.value, alone);
    // a4's path: three stretches (to c1, to c2, to a4); a5's: two, the first of them a4's first.
    assert.equal(without.reads - withMemo.reads, 1, `${without.reads} reads alone, ${withMemo.reads} with the memo`);
  });
});
