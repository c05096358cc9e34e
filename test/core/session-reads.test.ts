import { strict as assert } from "node:assert";
import { existsSync, readdirSync, renameSync } from "node:fs";
import { StaleSessionError } from "../../src/core/session/jsonl-session";
import { Session } from "../../src/core/formats/pi/pi-session";
import { header, type Raw, user, writeSession } from "../helpers/session-builder";

function chain(n: number, tag: string): Raw[] {
  const lines: Raw[] = [header()];
  for (let k = 0; k < n; k++) lines.push(user(`${tag}${k}`, k ? `${tag}${k - 1}` : null, `${tag} ${k}`));
  return lines;
}

const openFds = () => readdirSync("/proc/self/fd").length;

describe("reading entries by byte range", () => {
  it("opens the file once for a synchronous walk and closes it right after", async function () {
    if (!existsSync("/proc/self/fd")) this.skip(); // Linux: counts this process's open files
    const s = await Session.load(writeSession(chain(500, "e")));
    await new Promise((r) => setImmediate(r));
    const before = openFds();
    for (let i = 0; i < s.metas.length; i++) assert.equal(s.entryAt(i).id, `e${i}`);
    assert.ok(openFds() - before <= 1, `${openFds() - before} descriptors open during the walk`);
    await new Promise((r) => setImmediate(r));
    assert.equal(openFds(), before, "the descriptor outlived the walk");
  });

  it("a file replaced on disk is read anew by refresh, not through the descriptor of an earlier read", async () => {
    const file = writeSession(chain(50, "a"));
    const s = await Session.load(file);
    s.entryAt(10);
    const other = writeSession(chain(60, "b"));
    renameSync(other, file);
    await assert.rejects(s.refresh(), StaleSessionError);
  });
});
