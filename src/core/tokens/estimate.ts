/** An image counts as 4,800 characters, i.e. 1,200 tokens (pi's rule, used for every estimate). */
export const IMAGE_CHARS = 4800;

export function charsToTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** Ideographic scripts and kana/hangul (plus their punctuation): BPE vocabularies give these about one token per character. */
const WIDE_SCRIPT = /[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[\ud800-\udbff]/;

function isWide(c: number): boolean {
  return (c >= 0x3000 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xff00 && c <= 0xffef);
}

/**
 * A better instant estimate than chars/4 for text: chars/4 undercounts CJK text by
 * 2-4x because tokenizers spend about a token per ideograph, kana or hangul syllable.
 * Those characters (and astral characters such as emoji, per code point) count 1 each;
 * the rest counts chars/4. Pure ASCII takes a regex test and a division.
 */
export function estimateTextTokens(text: string): number {
  if (!WIDE_SCRIPT.test(text)) return charsToTokens(text.length);
  let wide = 0;
  let narrow = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isWide(c)) wide++;
    else if (c >= 0xd800 && c <= 0xdbff) {
      wide++;
      i++; // the low surrogate belongs to the same character
    } else narrow++;
  }
  return wide + charsToTokens(narrow);
}

/** Tokens an image costs in every estimate we make (pi's 4,800 chars / 4). */
export const IMAGE_TOKENS = IMAGE_CHARS / 4;
