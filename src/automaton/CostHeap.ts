/**
 * Positions ordered by cost, then by push order (a fixed order, so a walk over them is the same on every run): a
 * binary min-heap. The warm-ups (`MaskWarmer`, `AheadWarmer`) take their positions best first from one.
 */
export class CostHeap<T extends { cost: number; order: number }> {
  private readonly items: T[] = [];
  private pushes = 0;

  get size(): number {
    return this.items.length;
  }

  /** The item of least cost, or undefined when empty. */
  peek(): T | undefined {
    return this.items[0];
  }

  /** Adds `p`, numbering it (`order`) after every item pushed before. */
  push(p: T): void {
    p.order = this.pushes++;
    this.items.push(p);
    for (let i = this.items.length - 1; i > 0; ) {
      const q = (i - 1) >> 1;
      if (!this.before(i, q)) break;
      this.swap(i, q);
      i = q;
    }
  }

  /** Removes the item of least cost. */
  pop(): void {
    const last = this.items.length - 1;
    this.swap(0, last);
    this.items.pop();
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      let m = i;
      if (l < this.items.length && this.before(l, m)) m = l;
      if (l + 1 < this.items.length && this.before(l + 1, m)) m = l + 1;
      if (m === i) break;
      this.swap(i, m);
      i = m;
    }
  }

  /** Drops every item (they may hold large objects). */
  clear(): void {
    this.items.length = 0;
  }

  private before(i: number, j: number): boolean {
    const a = this.items[i];
    const b = this.items[j];
    return a.cost < b.cost || (a.cost === b.cost && a.order < b.order);
  }

  private swap(i: number, j: number): void {
    const { items } = this;
    [items[i], items[j]] = [items[j], items[i]];
  }
}
