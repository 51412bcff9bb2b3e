import { describe, expect, it } from "vitest";
import { BoundedMap, type EvictionOrder } from "../../src/util/BoundedMap.js";

const keysOf = <K extends {}, V extends {}>(m: BoundedMap<K, V>): K[] => [...m.keys()];
const ORDERS: EvictionOrder[] = ["insertion", "use"];

describe("BoundedMap", () => {
  it("insertion order: drops the oldest insertion first (a read keeps nothing)", () => {
    const m = new BoundedMap<string, number>({ maxEntries: 3, order: "insertion" });
    for (const [i, k] of ["a", "b", "c"].entries()) m.set(k, i);
    expect(m.get("a")).toBe(0);
    m.set("d", 3);
    expect(m.size).toBe(3);
    expect(keysOf(m)).toEqual(["b", "c", "d"]);
    expect(m.get("a")).toBeUndefined();
  });

  it("use order: drops the least recently used first (a get makes an entry the newest, a peek does not)", () => {
    const m = new BoundedMap<string, number>({ maxEntries: 3, order: "use" });
    for (const [i, k] of ["a", "b", "c"].entries()) m.set(k, i);
    expect(m.get("a")).toBe(0);
    expect(keysOf(m)).toEqual(["b", "c", "a"]);
    m.set("d", 3);
    expect(keysOf(m)).toEqual(["c", "a", "d"]);
    expect(m.peek("c")).toBe(2);
    m.set("e", 4);
    expect(keysOf(m)).toEqual(["a", "d", "e"]);
    expect(m.has("c")).toBe(false);
  });

  for (const order of ORDERS) {
    describe(`${order} order`, () => {
      it("a set of a held key replaces it as the newest and evicts nothing", () => {
        const m = new BoundedMap<string, number>({ maxEntries: 2, order });
        m.set("a", 1).set("b", 2).set("a", 3);
        expect([...m.entries()]).toEqual([
          ["b", 2],
          ["a", 3],
        ]);
        expect([...m]).toEqual([
          ["b", 2],
          ["a", 3],
        ]);
        expect([...m.values()]).toEqual([2, 3]);
      });

      it("keeps the entry bound over a long run of distinct keys, holding exactly the newest", () => {
        const m = new BoundedMap<number, number>({ maxEntries: 7, order });
        for (let i = 0; i < 1000; i++) {
          m.set(i, i);
          expect(m.size).toBe(Math.min(i + 1, 7));
        }
        expect(keysOf(m)).toEqual([993, 994, 995, 996, 997, 998, 999]);
        expect(m.delete(999)).toBe(true);
        expect(m.delete(999)).toBe(false);
        m.clear();
        expect(m.size).toBe(0);
      });

      it("holds a size budget: drops the oldest until the new entry fits, and counts deletes and replacements", () => {
        const m = new BoundedMap<string, Uint8Array>({ maxEntries: 100, maxSize: 10, sizeOf: (v) => v.length, order });
        m.set("a", new Uint8Array(4)).set("b", new Uint8Array(4));
        expect(m.totalSize).toBe(8);
        m.set("c", new Uint8Array(3));
        // 8 + 3 > 10: the oldest ("a") goes
        expect(keysOf(m)).toEqual(["b", "c"]);
        expect(m.totalSize).toBe(7);
        m.set("b", new Uint8Array(1));
        expect(keysOf(m)).toEqual(["c", "b"]);
        expect(m.totalSize).toBe(4);
        m.delete("c");
        expect(m.totalSize).toBe(1);
        m.set("d", new Uint8Array(9));
        expect(keysOf(m)).toEqual(["b", "d"]);
        expect(m.totalSize).toBe(10);
        m.clear();
        expect(m.totalSize).toBe(0);
      });

      it("does not keep an entry larger than the whole budget, and leaves the others", () => {
        const m = new BoundedMap<string, number>({ maxEntries: 10, maxSize: 5, sizeOf: (v) => v, order });
        m.set("a", 2).set("b", 2);
        m.set("big", 8);
        expect(keysOf(m)).toEqual(["a", "b"]);
        expect(m.totalSize).toBe(4);
      });

      it("evicts by count and by size together, whichever binds", () => {
        const m = new BoundedMap<string, number>({ maxEntries: 2, maxSize: 100, sizeOf: (v) => v, order });
        m.set("a", 1).set("b", 1).set("c", 1);
        expect(keysOf(m)).toEqual(["b", "c"]);
        // 2 + 99 > 100: one entry goes (then 1 + 99 fits)
        m.set("d", 99);
        expect(keysOf(m)).toEqual(["c", "d"]);
        m.set("e", 100);
        expect(keysOf(m)).toEqual(["e"]);
      });
    });
  }

  it("use order with a size budget: a get saves an entry from eviction", () => {
    const m = new BoundedMap<string, number>({ maxEntries: 100, maxSize: 10, sizeOf: (v) => v, order: "use" });
    m.set("a", 4).set("b", 4);
    m.get("a");
    m.set("c", 3);
    expect(keysOf(m)).toEqual(["a", "c"]);
  });

  it("refuses bounds it cannot hold", () => {
    expect(() => new BoundedMap({ maxEntries: 0, order: "use" })).toThrow(RangeError);
    expect(() => new BoundedMap({ maxEntries: 1, maxSize: 10, order: "insertion" })).toThrow(RangeError);
  });
});
