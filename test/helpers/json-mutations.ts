/** A small deterministic generator (the same cases every run). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** `s` with one to three characters dropped, put in or replaced by one of `noise`. */
export function mutated(s: string, noise: readonly string[], next: () => number): string {
  for (let m = 1 + Math.floor(next() * 3); m > 0; m--) {
    const at = Math.floor(next() * (s.length + 1));
    const r = next();
    if (r < 0.4) s = s.slice(0, at) + s.slice(at + 1);
    else s = s.slice(0, at) + noise[Math.floor(next() * noise.length)] + s.slice(r < 0.7 ? at : at + 1);
  }
  return s;
}
