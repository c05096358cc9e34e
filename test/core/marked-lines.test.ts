import { strict as assert } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { forEachMarkedLine } from "../../src/core/util/marked-lines";
import { tempDir } from "../helpers/session-builder";

const CHUNK = 1 << 20;

function marked(text: string, markers: string[]): string[] {
  const file = join(tempDir(), "lines.jsonl");
  writeFileSync(file, text);
  const out: string[] = [];
  forEachMarkedLine(file, markers, (l) => out.push(l));
  return out;
}

describe("forEachMarkedLine: the lines holding a marker, read in chunks", () => {
  it("a marker cut by every possible chunk seam is still found", () => {
    for (let cut = 1; cut < "-title".length; cut++) {
      // The first line ends so that the marker of the second straddles the 1 MiB seam at `cut`.
      const second = `{"type":"custom-title","x":1}`;
      const at = second.indexOf("-title");
      const first = "a".repeat(CHUNK - 1 - at - cut);
      assert.deepEqual(marked(`${first}\n${second}\nplain\n`, ["-title"]), [second], `seam after ${cut} byte(s) of the marker`);
    }
  });

  it("a marked line longer than a chunk comes whole; a long unmarked one not at all; the last line needs no newline", () => {
    const long = `{"type":"content-replacement","pad":"${"é".repeat(CHUNK)}"}`;
    const plain = `{"pad":"${"x".repeat(3 * CHUNK)}"}`;
    const last = `{"type":"ai-title","aiTitle":"t"}`;
    assert.deepEqual(marked(`${plain}\n${long}\n${last}`, ["-title", "content-replacement"]), [long, last]);
  });
});
