// Entry of dist/tokenizer.js: the o200k BPE tables and their encoder, in a file of their
// own so that no command or activation pays to parse them or build the tables (~4 MB,
// ~65 ms) until a count is asked for. Loaded through lazy-bundles.ts only.
export { countTokens } from "gpt-tokenizer/encoding/o200k_base";
