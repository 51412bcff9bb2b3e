import { ApiError } from "./ApiError.js";

interface Waiter {
  resolve: (release: () => void) => void;
  reject: (e: unknown) => void;
}

/**
 * Admits at most `slots` generations at once and queues at most `maxQueue` more; past that a request is refused at
 * once with 429 and a `Retry-After` estimated from recent generation times. A queued request leaves the queue when
 * its signal aborts (client gone, deadline passed).
 */
export class Scheduler {
  private running = 0;
  private readonly queue: Waiter[] = [];
  /** Mean seconds per generation, smoothed, for Retry-After. */
  private meanSeconds = 1;

  constructor(
    readonly slots: number,
    readonly maxQueue: number,
  ) {}

  get busy(): number {
    return this.running;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Resolves with the function that frees the slot (call it exactly once). */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.running < this.slots && this.queue.length === 0) return Promise.resolve(this.grant());
    if (this.queue.length >= this.maxQueue) {
      const seconds = Math.max(1, Math.ceil(((this.queue.length + 1) * this.meanSeconds) / this.slots));
      return Promise.reject(
        new ApiError(
          429,
          `The server is at capacity (${this.slots} generating, ${this.queue.length} queued). Retry after ${seconds} s.`,
          "rate_limit_error",
          null,
          "queue_full",
          {
            "Retry-After": String(seconds),
          },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { resolve, reject };
      this.queue.push(waiter);
      signal.addEventListener(
        "abort",
        () => {
          const at = this.queue.indexOf(waiter);
          if (at >= 0) {
            this.queue.splice(at, 1);
            reject(signal.reason);
          }
        },
        { once: true },
      );
    });
  }

  private grant(): () => void {
    this.running++;
    const started = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.meanSeconds = 0.8 * this.meanSeconds + 0.2 * ((performance.now() - started) / 1000);
      this.running--;
      const next = this.queue.shift();
      if (next !== undefined) next.resolve(this.grant());
    };
  }
}
