import { LRUCache } from "lru-cache";

/** How a BoundedMap orders its entries for eviction. */
export type EvictionOrder =
  /** First in, first out: a read does not keep an entry (tables of constants, where a miss only rebuilds one). */
  | "insertion"
  /** Least recently used first: `get` and `set` make an entry the newest. */
  | "use";

export interface BoundedMapOptions<K, V> {
  /** At most this many entries (at least 1). */
  maxEntries: number;
  order: EvictionOrder;
  /** With `sizeOf`: at most this much size over all entries (bytes, ids, …: whatever `sizeOf` counts). */
  maxSize?: number;
  /**
   * An entry's size, a non-negative integer (in "use" order at least 1 is counted), read once when it is set: a value
   * must not change size while it is held.
   */
  sizeOf?: (value: V, key: K) => number;
}

/**
 * A Map bounded in entries and optionally in total size, for the per-process tables that keep what was built once
 * (expressions, frames, masks). A set that would pass a bound first drops the oldest entries (by `order`) until the
 * new one fits, so the bounds hold after every set; an entry larger than `maxSize` alone is not kept (nor an older
 * value under its key; the other entries stay). Iteration runs from the oldest entry to the newest. Values are never undefined.
 *
 * "use" order is lru-cache's LRUCache (a list over preallocated arrays): on a hit it is about twice as fast as moving
 * the entry to the end of a Map by deleting and setting it again (≈60 against ≈125 ns a lookup, 1,000 keys, CPU
 * time), and the mask walks look shared masks up on their hot path. "insertion" order is a Map, whose first key is
 * the oldest: a hit is the Map's own lookup.
 */
export class BoundedMap<K extends {}, V extends {}> {
  private readonly lru: LRUCache<K, V> | undefined;
  private readonly fifo: Map<K, V> | undefined;
  /** The FIFO entries' sizes (with `sizeOf`), looked up by key only. */
  private readonly sizes: Map<K, number> | undefined;
  private total = 0;
  readonly maxEntries: number;
  readonly maxSize: number;
  private readonly sizeOf: ((value: V, key: K) => number) | undefined;

  constructor(options: BoundedMapOptions<K, V>) {
    const { maxEntries, maxSize, sizeOf, order } = options;
    if (!(maxEntries >= 1)) throw new RangeError(`BoundedMap: maxEntries must be at least 1, got ${maxEntries}`);
    if ((maxSize === undefined) !== (sizeOf === undefined))
      throw new RangeError("BoundedMap: maxSize and sizeOf go together");
    this.maxEntries = maxEntries;
    this.maxSize = maxSize ?? Infinity;
    this.sizeOf = sizeOf;
    if (order === "use") {
      this.lru =
        sizeOf === undefined
          ? new LRUCache<K, V>({ max: maxEntries })
          : new LRUCache<K, V>({ max: maxEntries, maxSize, sizeCalculation: (v, k) => Math.max(1, sizeOf(v, k)) });
    } else {
      this.fifo = new Map();
      if (sizeOf !== undefined) this.sizes = new Map();
    }
  }

  /** The value under `key`; in "use" order it becomes the newest entry. */
  get(key: K): V | undefined {
    return this.lru !== undefined ? this.lru.get(key) : this.fifo!.get(key);
  }

  /** The value under `key`, without changing the order. */
  peek(key: K): V | undefined {
    return this.lru !== undefined ? this.lru.peek(key) : this.fifo!.get(key);
  }

  has(key: K): boolean {
    return this.lru !== undefined ? this.lru.has(key) : this.fifo!.has(key);
  }

  /** Sets `key` as the newest entry (also in "insertion" order), dropping the oldest ones until the bounds hold. */
  set(key: K, value: V): this {
    if (this.lru !== undefined) {
      this.lru.set(key, value);
      return this;
    }
    const map = this.fifo!;
    this.delete(key);
    if (this.sizes === undefined) {
      if (map.size >= this.maxEntries) map.delete(map.keys().next().value!);
      map.set(key, value);
      return this;
    }
    const size = this.sizeOf!(value, key);
    if (size > this.maxSize) return this;
    while (map.size >= this.maxEntries || this.total + size > this.maxSize) this.delete(map.keys().next().value!);
    map.set(key, value);
    this.sizes.set(key, size);
    this.total += size;
    return this;
  }

  delete(key: K): boolean {
    if (this.lru !== undefined) return this.lru.delete(key);
    if (!this.fifo!.delete(key)) return false;
    if (this.sizes !== undefined) {
      this.total -= this.sizes.get(key)!;
      this.sizes.delete(key);
    }
    return true;
  }

  clear(): void {
    this.lru?.clear();
    this.fifo?.clear();
    this.sizes?.clear();
    this.total = 0;
  }

  get size(): number {
    return this.lru !== undefined ? this.lru.size : this.fifo!.size;
  }

  /** The sizes of the entries held, summed (0 without `sizeOf`). */
  get totalSize(): number {
    return this.lru !== undefined ? this.lru.calculatedSize : this.total;
  }

  /** Keys, oldest first. */
  keys(): IterableIterator<K> {
    return this.lru !== undefined ? this.lru.rkeys() : this.fifo!.keys();
  }

  /** Values, oldest first. */
  values(): IterableIterator<V> {
    // no fetchMethod: every value is held, none undefined
    return this.lru !== undefined ? (this.lru.rvalues() as IterableIterator<V>) : this.fifo!.values();
  }

  /** Entries, oldest first. */
  entries(): IterableIterator<[K, V]> {
    return this.lru !== undefined ? (this.lru.rentries() as IterableIterator<[K, V]>) : this.fifo!.entries();
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }
}
