// The rests of pi's lines that the line scan (line-leads.ts) checks whole, so the history's
// read neither walks nor parses them: an assistant's line after its content (`rest`), and a
// prompt of one text after its lead (`prompt`).

import { BLOCK, GET, I32_CONST, I32_NE, I32_STORE, END, RETURN, SET } from "../../util/wasm-simd";
import { Asm } from "../../util/wasm-asm";
import { bytes, FLAGS, HI, jsonString, LEAD_END, literal, LO, NL, OUT, P, pieces, step, type Template } from "./lead-asm";

/**
 * The rest of an assistant's line as pi writes it after its content's `]`, piece by piece:
 * bytes as they are, a plain string (S, quotes included), a number (N), and a piece that
 * is there or not ([...]).
 */
const REST: Template = [
  ',"api":', "S", ',"provider":', "S", ',"model":', "S",
  ',"usage":{"input":', "N", ',"output":', "N", ',"cacheRead":', "N", ',"cacheWrite":', "N", { optional: [',"totalTokens":', "N"] },
  ',"cost":{"input":', "N", ',"output":', "N", ',"cacheRead":', "N", ',"cacheWrite":', "N", ',"total":', "N",
  '}},"stopReason":', "S", ',"timestamp":', "N", "}}",
];
/** The members REST names in the assistant's message (a walk takes the shortcut only when the message named none of them before its content). */
export const REST_KEYS = ["api", "provider", "model", "usage", "stopReason", "timestamp"];

/** rest(p, end): 1 when the bytes from p to end are REST, else 0. */
export function restBody(): number[] {
  const a = new Asm();
  a.op(GET, LO, SET, P, GET, HI, SET, NL);
  a.nest(BLOCK, "fail", () => {
    pieces(a, REST, "fail");
    a.op(GET, P, GET, NL, I32_NE).brIf("fail");
    a.op(I32_CONST, 1, RETURN);
  });
  a.op(I32_CONST, 0, END);
  return a.code;
}

/** A prompt's content and the rest of its line as pi writes them after the content's `[`: one text, and the message's time or none. */
export const PROMPT_TEXT = bytes('{"type":"text","text":"');
const PROMPT_REST: Template = ['"}]', { optional: [',"timestamp":', "N"] }, "}}"];

/** prompt(p, end, out): where the text's closing quote is, else 0 (see LineLeads.promptText). */
export function promptBody(): number[] {
  const a = new Asm();
  a.op(GET, LO, SET, P, GET, HI, SET, NL, I32_CONST, 0, SET, FLAGS);
  a.nest(BLOCK, "fail", () => {
    literal(a, P, 0, PROMPT_TEXT, "fail");
    step(a, PROMPT_TEXT.length);
    jsonString(a, "fail");
    a.op(GET, P, SET, LEAD_END);
    pieces(a, PROMPT_REST, "fail");
    a.op(GET, P, GET, NL, I32_NE).brIf("fail");
    a.op(GET, OUT, GET, FLAGS, I32_STORE, 2, 0, GET, LEAD_END, RETURN);
  });
  a.op(I32_CONST, 0, END);
  return a.code;
}

