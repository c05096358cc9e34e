import type { PageDetails } from "../core/export/html-data";
import type { Scrubber } from "../core/export/scrubber";
import type { DetailBlock, EntryDetails } from "../protocol";

/**
 * An entry's details as an exported page carries them (redacted), with the whole text of
 * each block the display cut; `whole(k)` gives block k uncut. A cut block's shown text is
 * the start of its whole one, so it is written once (the page cuts it again).
 */
export function packDetails(d: EntryDetails, entryId: string, scrub: Scrubber, whole: (k: number) => DetailBlock): PageDetails {
  const page: PageDetails = { d: scrub.deep({ ...d, unavailable: undefined }, entryId, "details") };
  d.blocks.forEach((b: DetailBlock, k: number) => {
    if (b.fullLength === undefined && !b.edits?.some((e) => e.cut)) return;
    const all = scrub.deep(whole(k), entryId, b.kind);
    (page.full ??= {})[k] = all;
    const shown = page.d.blocks[k];
    if (shown.text !== undefined && all.text?.startsWith(shown.text)) {
      (page.shown ??= {})[k] = shown.text.length;
      delete shown.text;
    }
  });
  return page;
}
