import { strict as assert } from "node:assert";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decompress } from "fzstd";
import { CodexZstSession, loadCodex } from "../../../src/core/formats/codex/session";
import { contentSizeOf, frameContentSize } from "../../../src/core/formats/codex/zst-frame";
import { generateCodexRollout } from "../../../bench/generate-codex";
import { tempDir } from "../../helpers/session-builder";
import { rawZst, recorded, tempHome } from "./helpers";

const FIXTURE_DIR = join(process.cwd(), "test", "fixtures", "codex", "zst-home", "sessions", "2026", "11", "26");

describe("Codex .zst: the size a frame declares, and the room a load sets aside from it", () => {
  it("reads the content size the zstd command wrote, equal to what the frame decompresses to", () => {
    const file = join(FIXTURE_DIR, readdirSync(FIXTURE_DIR)[0]);
    const size = frameContentSize(file);
    assert.equal(size, decompress(readFileSync(file)).length);
  });

  it("reads every width of the field, and gives nothing for a frame without one, junk or a cut header", () => {
    const magic = [0x28, 0xb5, 0x2f, 0xfd];
    // 1 byte: single segment, no window descriptor.
    assert.equal(contentSizeOf(Uint8Array.from([...magic, 0x20, 200])), 200);
    // 2 bytes count from 256; a window descriptor and a 1-byte dictionary id before them.
    assert.equal(contentSizeOf(Uint8Array.from([...magic, 0x41, 7 << 3, 9, 0x10, 0x00])), 0x10 + 256);
    // 4 and 8 bytes, little-endian.
    assert.equal(contentSizeOf(Uint8Array.from([...magic, 0x80, 7 << 3, 0x00, 0x00, 0x40, 0x06])), 0x06400000);
    assert.equal(contentSizeOf(Uint8Array.from([...magic, 0xe0, 1, 0, 0, 0, 1, 0, 0, 0])), 2 ** 32 + 1);
    assert.equal(contentSizeOf(Uint8Array.from([...magic, 0x00, 7 << 3])), undefined);
    assert.equal(contentSizeOf(Buffer.from('{"type":"session_meta"}')), undefined);
    assert.equal(contentSizeOf(Uint8Array.from([...magic, 0x80, 7 << 3, 0x00])), undefined);
    assert.equal(frameContentSize(join(tempDir(), "missing.jsonl.zst")), undefined);
  });

  it("a load of a large .zst that declares its size sets the index's room aside at once; one that does not doubles it", async () => {
    const { day } = tempHome();
    const plain = join(day, "rollout-2026-11-26T05-00-00-01a2166c-0000-7000-8000-0000000000ab.jsonl");
    const { main, compact } = recorded();
    generateCodexRollout({ sources: [main, compact], targetBytes: 12 * 2 ** 20, out: plain });
    const doublings = async (declareSize: boolean) => {
      const z = tempHome();
      const zst = join(z.day, "rollout-2026-11-26T05-00-00-01a2166c-0000-7000-8000-0000000000ab.jsonl.zst");
      writeFileSync(zst, rawZst(readFileSync(plain), undefined, { declareSize }));
      const s = await loadCodex(zst);
      assert.ok(s instanceof CodexZstSession, "read as a .zst");
      assert.ok(s.metas.length > 5000, `${s.metas.length} entries`);
      return s.file.table.doublings;
    };
    assert.equal(await doublings(true), 0, "room set aside from the declared size");
    assert.ok((await doublings(false)) > 0, "without a declared size the table grows as it goes (the test can fail)");
  });
});
