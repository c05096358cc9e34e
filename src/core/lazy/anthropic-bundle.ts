// Entry of dist/anthropic-sdk.js: the official SDK (~1.2 MB), in a file of its own so
// that it is read only when a summary or an --anthropic-count request is made. Loaded
// through lazy-bundles.ts only.
export { default as Anthropic, AnthropicError, APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
