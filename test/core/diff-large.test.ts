import { strict as assert } from "node:assert";
import { main } from "../../src/cli/main";
import { assistant, header, type Raw, tempDir, user, writeSession } from "../helpers/session-builder";

// Past the ~120,000 arguments at which a spread into a call overflows the stack.
const MANY = 150_000;

async function ase(args: string[]) {
  let out = "";
  let err = "";
  const code = await main(args, { out: (t) => (out += t), err: (t) => (err += t), env: {}, cwd: process.cwd() });
  return { code, out, err };
}

describe(`ase diff: ${MANY.toLocaleString("en")} messages on one side before a shared one`, function () {
  this.timeout(300_000);

  it("B holds them between the first message and the shared last: all one-sided, in order, no stack overflow", async () => {
    const dir = tempDir();
    const a = writeSession([header(), user("u0", null, "start"), assistant("x", "u0", "shared answer")], { dir, name: "a.jsonl" });
    const lines: Raw[] = [header(), user("u0", null, "start")];
    for (let i = 1; i <= MANY; i++) lines.push(user(`b${i}`, i === 1 ? "u0" : `b${i - 1}`, `only in b ${i}`));
    lines.push(assistant("x", `b${MANY}`, "shared answer"));
    const b = writeSession(lines, { dir, name: "b.jsonl" });
    const r = await ase(["diff", a, "--a", "x", "--against", b, "--b", "x", "--json"]);
    assert.equal(r.code, 0, r.err);
    const d = JSON.parse(r.out) as { sharedPrefix: { messages: number }; ops: Array<{ op: string }> };
    // u0 is written twice (its timestamps differ): the same entry changed, or shared.
    assert.ok(d.sharedPrefix.messages <= 1);
    const onlyB = d.ops.filter((o) => o.op === "onlyB").length;
    assert.equal(onlyB, MANY);
    // The shared message is paired, after every one-sided one.
    const last = d.ops[d.ops.length - 1].op;
    assert.ok(last !== "onlyB" && last !== "onlyA", last);
    // The text output lists every one of them too.
    const text = await ase(["diff", a, "--a", "x", "--against", b, "--b", "x"]);
    assert.equal(text.code, 0, text.err);
    assert.ok(text.out.includes(`only in b ${MANY}`), "the last one-sided message shown");
  });
});
