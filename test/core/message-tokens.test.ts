import { strict as assert } from "node:assert";
import { IMAGE_TOKENS } from "../../src/core/tokens/estimate";
import { messageTokens } from "../../src/core/usage/format-tokens";

describe("messageTokens: what a message of any format is estimated at", () => {
  const base64 = "iVBORw0KGgo".repeat(100_000);
  const text = { type: "text", text: "look at this screenshot" };
  const image = { type: "image", source: { type: "base64", media_type: "image/png", data: base64 } };

  it("an image is IMAGE_TOKENS, not its base64 text; the rest as its JSON", () => {
    const plain = messageTokens({ role: "user", content: [text] });
    assert.equal(messageTokens({ role: "user", content: [text, image] }), plain + IMAGE_TOKENS);
    assert.equal(messageTokens({ role: "user", content: [text, image, image] }), plain + 2 * IMAGE_TOKENS);
  });

  it("an image inside a tool result's content counts the same way", () => {
    const result = (content: unknown[]) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content }] });
    assert.equal(messageTokens(result([text, image])), messageTokens(result([text])) + IMAGE_TOKENS);
  });

  it("a message without images is chars/4 of its JSON content; a string content is its text", () => {
    const content = [text, { type: "tool_use", id: "t", name: "Read", input: { file_path: "/a" } }];
    assert.equal(messageTokens({ role: "assistant", content }), Math.ceil(JSON.stringify(content).length / 4));
    assert.equal(messageTokens({ role: "user", content: "abcdefgh" }), 2);
  });
});
