import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readFirstLines } from "../../src/core/formats/registry";
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
  });
});
