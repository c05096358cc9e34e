import { strict as assert } from "node:assert";
import { redactCutTail } from "../../src/core/export/redact/cut-tail";

describe("export: a secret cut short at the end of a shown text", () => {
  it("replaces a key-like word the cut ended in, ellipsis kept", () => {
    assert.equal(redactCutTail("name: deploy with sk-ant-api03-mof7iV78J1mxA6o-NIIJ1C4BIFfiHW..."), "name: deploy with [REDACTED:cut-secret]...");
    assert.equal(redactCutTail("SendGrid key: SG.CMyXep49bLN_v1tEpH0UCX.PXI_5YuTNtK_xV"), "SendGrid key: [REDACTED:cut-secret]");
    // In a path, its last part.
    assert.equal(redactCutTail("Read ~/proj/sk-ant-api03-mof7iV78J1mxA6o-NIIJ1C4BIFfiHWldW1R..."), "Read ~/proj/[REDACTED:cut-secret]...");
  });

  it("leaves prose, short words, plain numbers and markers alone", () => {
    for (const t of ["Please refactor the Frobnicator module and then run the...", "step 12345678901234", "ok", "Read src/parser/grammar.ts", "Read ~/proj/internationalization...", "token [REDACTED:github-pat]", "see internationalization…"]) assert.equal(redactCutTail(t), t);
  });
});
