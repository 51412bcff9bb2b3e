/** A resizable ArrayBuffer (ES2024; the project's lib is ES2022). */
interface Resizable {
  readonly resizable?: boolean;
  readonly maxByteLength?: number;
  resize?(byteLength: number): void;
}
type ResizableCtor = new (byteLength: number, options: { maxByteLength: number }) => ArrayBuffer;

const RESIZABLE = typeof (ArrayBuffer.prototype as Resizable).resize === "function";

/**
 * `t` grown to `len` entries, its entries kept, the new ones 0: in place where `t` lies at the start of a resizable
 * buffer with room, else in a new resizable buffer that reserves `reserve` entries (address space only: a page is
 * given memory when first written), into which `t` is copied once.
 *
 * Why: an automaton's byte table (a row of 256 entries per R-state or configuration) that doubled by copying wrote
 * half of the new table at once, inside the mask that made the row past its end. The first write of fresh memory is
 * what costs there (a page fault per 4 KB): 25–90 ms for a table of 0.5–4 MB on a loaded machine, the largest part of
 * masks that walked a few hundred trie nodes. Grown in place, a table's pages are first written a row at a time, as
 * its rows are made. `copied`: the entries copied (for the automaton's count of growth writes). (Node 20's
 * `process.memoryUsage().arrayBuffers` leaves resizable buffers out; `Automaton.memoryBytes` counts the tables' length.)
 */
export function growTable(
  t: Int32Array<ArrayBuffer>,
  len: number,
  reserve: number,
): { table: Int32Array<ArrayBuffer>; copied: number } {
  const buf = t.buffer as ArrayBuffer & Resizable;
  if (buf.resizable === true && t.byteOffset === 0 && (buf.maxByteLength ?? 0) >= len * 4) {
    buf.resize!(len * 4);
    return { table: new Int32Array(buf, 0, len), copied: 0 };
  }
  let out: Int32Array<ArrayBuffer> | undefined;
  if (RESIZABLE) {
    const max = Math.max(len, Math.min(reserve, MAX_RESERVE)) * 4;
    try {
      out = new Int32Array(new (ArrayBuffer as unknown as ResizableCtor)(len * 4, { maxByteLength: max }), 0, len);
    } catch {
      // an engine that will not reserve that much address space: a table of its own size, copied at each growth
    }
  }
  out ??= new Int32Array(len);
  out.set(t);
  return { table: out, copied: t.length };
}

/** Entries a table reserves at most (2 GB of address space): past them it grows by copying. */
const MAX_RESERVE = 1 << 29;
