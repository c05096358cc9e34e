import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { detectFormat, readFirstLines } from "../../src/core/formats/registry";
import { HEAD_CAP } from "../../src/core/store/head-lines";
import { CONFIG_CAP, readTextFile } from "../../src/core/util/safe-open";
import { tempDir } from "../helpers/session-builder";

describe("safe file reads: regular files only, config files capped, first lines whole", () => {
  it("a FIFO, a folder and a device are refused by kind, before any read", () => {
    const dir = tempDir();
    const fifo = join(dir, "p.json");
    assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
    assert.throws(() => readTextFile(fifo), { message: `${fifo} is a FIFO, not a regular file` });
    assert.throws(() => readTextFile(dir), { message: `${dir} is a directory, not a regular file` });
    assert.throws(() => readTextFile("/dev/zero", CONFIG_CAP), { message: "/dev/zero is a character device, not a regular file" });
    assert.throws(() => readFirstLines(fifo), { message: `${fifo} is a FIFO, not a regular file` });
  });

  it("a config file over its cap is refused naming the cap; one under it is read whole", () => {
    const file = join(tempDir(), "c.json");
    writeFileSync(file, "x".repeat(CONFIG_CAP + 1));
    assert.throws(() => readTextFile(file, CONFIG_CAP), /is larger than 1 MiB/);
    writeFileSync(file, '{"a":1}');
    assert.equal(readTextFile(file, CONFIG_CAP), '{"a":1}');
  });

  it("detection reads a 1 MiB first line whole; a first line past the cap is a clear error", function () {
    this.timeout(60_000);
    const dir = tempDir();
    const big = join(dir, "big.jsonl");
    const first = { type: "user", uuid: "u1", sessionId: "s", text: "x".repeat(1024 * 1024) };
    writeFileSync(big, `${JSON.stringify(first)}\n{"type":"assistant","uuid":"a1"}\n`);
    const got = readFirstLines(big).objects;
    assert.equal(got.length, 2);
    assert.equal((got[0] as { uuid?: string }).uuid, "u1");
    const huge = join(dir, "huge.jsonl");
    writeFileSync(huge, `{"t":"${"y".repeat(HEAD_CAP)}"}\n`);
    assert.throws(() => readFirstLines(huge), { message: `${huge}: the first line is longer than 16 MiB; not read as a session` });
    // Past the cap, the lines after the first still say what the file is: a Claude Code
    // transcript whose first prompt is a huge paste opens.
    const env = { isSidechain: false, userType: "external", cwd: "/p", sessionId: "s1", version: "2.1.90", timestamp: "2026-03-01T10:00:00.000Z" };
    const pasted = join(dir, "pasted.jsonl");
    writeFileSync(pasted, `${JSON.stringify({ ...env, parentUuid: null, type: "user", uuid: "u1", message: { role: "user", content: "z".repeat(HEAD_CAP + 10) } })}\n${JSON.stringify({ ...env, parentUuid: "u1", type: "assistant", uuid: "a1", message: { id: "m1", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "ok" }] } })}\n`);
    const seen = readFirstLines(pasted).objects;
    assert.equal(seen[0], undefined);
    assert.equal((seen[1] as { uuid?: string }).uuid, "a1");
    assert.equal(detectFormat({ path: pasted, objects: seen }).id, "claude-code");
  });
});
