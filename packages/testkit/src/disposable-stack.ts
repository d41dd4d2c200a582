/**
 * The part of ES2026's AsyncDisposableStack the testkit uses, because Node 20 lacks it: on 20.19
 * and 20.20 `typeof AsyncDisposableStack` is "undefined" (Symbol.asyncDispose exists, so
 * `await using` works on objects that bring their own dispose). Same names and order as the
 * standard, so code moves to the built-in unchanged once Node 24 is the oldest supported:
 * callbacks run last in, first out, each once, all of them even when one fails; one failure is
 * rethrown as it is, several as an AggregateError (the standard nests SuppressedErrors, which
 * Node 20 lacks too). Registering on a disposed stack throws, so nothing is silently kept.
 */
export class AsyncDisposableStack implements AsyncDisposable {
  #callbacks: (() => PromiseLike<void> | void)[] = [];
  #disposed = false;

  get disposed(): boolean {
    return this.#disposed;
  }

  /** Disposes `value` (its Symbol.asyncDispose, else Symbol.dispose) with the stack; returns it. */
  use<T extends AsyncDisposable | Disposable | null | undefined>(value: T): T {
    if (value === null || value === undefined) return value;
    const dispose =
      (value as Partial<AsyncDisposable>)[Symbol.asyncDispose] ??
      (value as Partial<Disposable>)[Symbol.dispose];
    if (typeof dispose !== "function") throw new TypeError("use(): the value is not disposable");
    this.defer(() => dispose.call(value));
    return value;
  }

  /** Calls `onDispose(value)` with the stack; returns `value`. */
  adopt<T>(value: T, onDispose: (value: T) => PromiseLike<void> | void): T {
    this.defer(() => onDispose(value));
    return value;
  }

  /** Calls `onDispose` with the stack. */
  defer(onDispose: () => PromiseLike<void> | void): void {
    if (this.#disposed) throw new ReferenceError("this AsyncDisposableStack is already disposed");
    this.#callbacks.push(onDispose);
  }

  /** A new stack holding this one's callbacks; this one is left disposed, holding none. */
  move(): AsyncDisposableStack {
    if (this.#disposed) throw new ReferenceError("this AsyncDisposableStack is already disposed");
    const moved = new AsyncDisposableStack();
    moved.#callbacks = this.#callbacks;
    this.#callbacks = [];
    this.#disposed = true;
    return moved;
  }

  async disposeAsync(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    const errors: unknown[] = [];
    for (const callback of this.#callbacks.splice(0).reverse()) {
      try {
        await callback();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} disposals failed`);
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.disposeAsync();
  }
}
