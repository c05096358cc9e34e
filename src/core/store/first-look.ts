/**
 * Sessions from this size on are shown from their first FIRST_PART_BYTES while the rest
 * is read (performance.md: first rows in under a second at any size). Below it the
 * whole load takes under ~0.8 s here (100 MB: 0.45-0.65 s on two threads).
 */
export const FIRST_LOOK_MIN_BYTES = 160 * 2 ** 20;

/** A first part that indexes in ~0.2 s. */
export const FIRST_PART_BYTES = 32 * 2 ** 20;

/** LoadOptions.firstPart for a file of this size: undefined to load it whole at once. */
export function firstPartFor(size: number): number | undefined {
  return size >= FIRST_LOOK_MIN_BYTES ? FIRST_PART_BYTES : undefined;
}
