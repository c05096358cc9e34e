/** A small LRU map bounded by entry count and by a caller-given weight (bytes). */
export class Lru<K, V> {
  private map = new Map<K, { value: V; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Number.POSITIVE_INFINITY,
  ) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  set(key: K, value: V, weight = 1): void {
    const old = this.map.get(key);
    if (old) {
      this.weight -= old.weight;
      this.map.delete(key);
    }
    this.map.set(key, { value, weight });
    this.weight += weight;
    while (this.map.size > this.maxEntries || (this.weight > this.maxWeight && this.map.size > 1)) {
      const [k, v] = this.map.entries().next().value as [K, { value: V; weight: number }];
      this.map.delete(k);
      this.weight -= v.weight;
    }
  }

  clear(): void {
    this.map.clear();
    this.weight = 0;
  }

  get size(): number {
    return this.map.size;
  }
}
