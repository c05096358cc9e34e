import { strict as assert } from "node:assert";
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { main } from "../../../src/cli/main";
import { renderFormatContext } from "../../../src/core/context/format-context";
import { formatOf, openSession } from "../../../src/core/formats/registry";
import { meta, msg, tempHome, THREAD, writeRollout } from "./helpers";

const FIX = join(process.cwd(), "test", "fixtures", "codex");
const ZST_TWO = join(FIX, "handmade", "two-frames");

async function ase(args: string[]) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env: {}, cwd: process.cwd() });
  return { code, out, err };
}

const native = async (path: string) => {
  const s = await openSession(path);
  return { s, items: (renderFormatContext(s, s.metas.length - 1, "native") as { messages: Array<Record<string, unknown>> }).messages };
};

describe("Codex bad input: junk lines, a truncated .zst, a fork without its parent, unknown types", () => {
  it("junk lines are reported with their line numbers and the rest is read", async () => {
    const { day } = tempHome();
    const file = writeRollout(day, THREAD, [meta(), msg(1, "user", "first"), "{not json", "[1,2]", msg(2, "assistant", "answer")]);
    // A last line Codex was killed in the middle of: no newline.
    appendFileSync(file, '{"timestamp":"x","ordinal":3,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"torn');
    const { s, items } = await native(file);
    assert.deepEqual(items.map((i) => i.id), ["msg_1", "msg_2"]);
    const lines = s.problems.map((p) => p.line);
    assert.deepEqual(lines, [3, 4, 6]);
    assert.match(s.problems[0].message, /^line 3: not valid JSON/);
    assert.match(s.problems[2].message, /^line 6: torn last line/);
  });

  it("unknown line and item types are kept, shown as unknown, and never fatal; the context keeps unknown items as Codex would send them", async () => {
    const { day } = tempHome();
    const file = writeRollout(day, THREAD, [meta(), msg(1, "user", "hi"), { timestamp: "t", ordinal: 2, type: "brand_new_line", payload: { x: 1 } }, { timestamp: "t", ordinal: 3, type: "response_item", payload: { type: "hologram", id: "h1" } }]);
    const { s, items } = await native(file);
    const f = formatOf(s);
    assert.equal(s.problemCount, 0);
    assert.equal(f.describe(s, 1).label, "Unknown line (brand_new_line)");
    assert.equal(f.describe(s, 2).label, "Unknown item (hologram)");
    assert.deepEqual(items.map((i) => i.type), ["message", "hologram"]);
  });

  it("a truncated .zst is a problem naming the file, and the lines before the cut are still shown", async () => {
    const { day } = tempHome();
    const whole = readFileSync(join(ZST_TWO, readdirZst()));
    const cut = join(day, readdirZst());
    writeFileSync(cut, whole.subarray(0, whole.length - 200));
    const s = await openSession(cut);
    assert.equal(s.formatId, "codex");
    assert.ok(s.metas.length > 0, "the readable part is indexed");
    const zstProblem = s.problems.find((p) => p.message.includes("zstd"));
    assert.ok(zstProblem, "a problem says the zstd data is cut");
    assert.ok(zstProblem.message.startsWith(`${cut}: the zstd data is corrupt or truncated`), zstProblem.message);
    const r = await ase(["tree", cut]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /zstd data is corrupt or truncated/);
    assert.match(r.out, /Say hello/);
  });

  it("a fork whose parent rollout is missing names the parent and still shows its own part", async () => {
    const { day } = tempHome();
    const parent = "01a2166c-0000-7000-8000-0000000000ff";
    const file = writeRollout(day, THREAD, [meta(THREAD, { forked_from_id: parent, forked_from_ordinal_exclusive: 5, history_base: { thread_id: parent, end_ordinal_exclusive: 5, end_byte_offset: 100 } }), msg(6, "user", "on the fork"), msg(7, "assistant", "fork answer")]);
    const { s, items } = await native(file);
    assert.deepEqual(items.map((i) => i.id), ["msg_6", "msg_7"]);
    const p = s.problems.find((x) => x.kind === "unknown-parent");
    assert.ok(p, "the missing parent is a problem");
    assert.match(p.message, new RegExp(`fork of thread ${parent}: no rollout of that thread beside it or under .*; only the fork's own part is shown`));
    const r = await ase(["context", file, "--format", "native"]);
    assert.equal(r.code, 0);
    assert.match(r.err, new RegExp(parent));
  });

  it("a file whose first line is no session_meta but that the user opens as Codex by name is refused with the reason (exit 2)", async () => {
    const { day } = tempHome();
    const bogus = join(day, `rollout-2026-11-26T05-00-00-${THREAD}.jsonl.zst`);
    writeFileSync(bogus, "this is not zstd at all\n");
    const r = await ase(["tree", bogus]);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, new RegExp(`${bogus.replace(/[.]/g, "\\.")}`));
    assert.doesNotMatch(r.err, /\n\s+at /, "no stack trace");
  });
});

/** The hand-made .zst of two frames (old-format.mjs): a cut inside the second leaves the first whole. */
function readdirZst(): string {
  return readdirSync(ZST_TWO).find((n) => n.endsWith(".zst")) as string;
}
