import { strict as assert } from "node:assert";
import { buildContext } from "../../../src/core/formats/pi/context/build-context";
import { entry, header, user } from "../../helpers/session-builder";
import { piSession, texts } from "./memory";

describe("pi's labels and session name (sessions in memory)", () => {
  it("labels: latest label entry wins, an absent label clears; session name is the latest", () => {
    const lines = [
      header(),
      user("00000001", null, "q"),
      entry("label", "00000002", "00000001", { targetId: "00000001", label: "first" }),
      entry("label", "00000003", "00000002", { targetId: "00000001", label: "second" }),
      entry("label", "00000004", "00000003", { targetId: "00000002", label: "gone" }),
      entry("label", "00000005", "00000004", { targetId: "00000002" }),
      entry("session_info", "00000006", "00000005", { name: "  Old name " }),
      entry("session_info", "00000007", "00000006", { name: "New name" }),
      entry("weird_future_type", "00000008", "00000007", { anything: true }),
    ];
    const s = piSession(lines);
    assert.deepEqual([...s.tree.labels], [["00000001", "second"]]);
    assert.equal(s.tree.name, "New name");
    assert.equal(s.metas[7].type, "weird_future_type");
    assert.deepEqual(texts(buildContext(s)), ["q"]);
  });
});
