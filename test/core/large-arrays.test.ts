import { strict as assert } from "node:assert";
import { buildContext } from "../../src/core/formats/pi/context/build-context";
import { renderAnthropic } from "../../src/core/formats/pi/context/render-anthropic";
import { renderXml } from "../../src/core/formats/pi/context/render-xml";
import { Session } from "../../src/core/formats/pi/pi-session";
import { instantTokens } from "../../src/core/formats/pi/tokens/entry-tokens";
import { treeRows } from "../../src/core/formats/tree-rows";
import { pushAll } from "../../src/core/util/push-all";
import { entry, header, type Raw, user, writeSession } from "../helpers/session-builder";

// Far past the ~120,000 arguments at which `f(...array)` overflows the stack.
const MANY = 200_000;

describe("arrays as long as a session is (no spread of an unbounded array into a call)", function () {
  this.timeout(180_000);

  it("pushAll appends 10^6 items, where a spread into push throws", () => {
    const big = Array.from({ length: 1_000_000 }, (_, i) => i);
    assert.throws(() => [].push(...(big as never[])), RangeError, "the platform limit this guards against");
    const out = pushAll([-1], big);
    assert.equal(out.length, 1_000_001);
    assert.equal(out[1_000_000], 999_999);
    assert.deepEqual(pushAll([], big, 999_998), [999_998, 999_999]);
  });

  it(`tree rows: ${MANY.toLocaleString("en")} children under hidden entries become roots, in order`, async () => {
    // A hidden label root, a hidden label under it, then MANY user messages under that.
    const lines: Raw[] = [header(), entry("label", "L0", null, { targetId: "L0", label: "a" }), entry("label", "L1", "L0", { targetId: "L0", label: "b" })];
    for (let i = 0; i < MANY; i++) lines.push(user(`u${i}`, "L1", "x"));
    const s = await Session.load(writeSession(lines));
    const rows = treeRows(s);
    assert.equal(rows.length, MANY);
    assert.equal(s.metas[rows[0].index].id, "u0");
    assert.equal(s.metas[rows[MANY - 1].index].id, `u${MANY - 1}`);

    // The explorer appends the token rows of new entries from where it stopped.
    const all = instantTokens(s);
    const tail = instantTokens(s, MANY - 5);
    assert.equal(tail[MANY - 6], undefined);
    assert.deepEqual(tail.slice(MANY - 5), all.slice(MANY - 5));
    const table = all.slice(0, MANY - 5);
    pushAll(table, tail, MANY - 5);
    assert.deepEqual(table, all);
  });

  it(`context renderers: a chain of ${MANY.toLocaleString("en")} messages, and one message of as many blocks`, async () => {
    const lines: Raw[] = [header(), user("m0", null, "first")];
    for (let i = 1; i < MANY; i++) lines.push(user(`m${i}`, `m${i - 1}`, `msg ${i}`));
    const blocks = Array.from({ length: MANY }, (_, i) => ({ type: "text", text: `b${i}` }));
    lines.push(user("big", `m${MANY - 1}`, "", { message: { role: "user", content: blocks, timestamp: 1 } }));
    const s = await Session.load(writeSession(lines));
    const ctx = buildContext(s, "big");
    const xml = renderXml(ctx);
    assert.equal(xml.items.length, MANY + MANY, "an item per block");
    // Consecutive user messages merge into one: the big one's blocks join the previous content.
    const { body } = renderAnthropic(ctx);
    assert.equal(body.messages.length, 1);
    const content = body.messages[0].content as unknown[];
    assert.equal(content.length, MANY + MANY);
  });
});
