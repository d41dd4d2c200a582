import { describe, expect, it } from "vitest";
import { AsyncDisposableStack } from "../src/disposable-stack.ts";

describe("AsyncDisposableStack (for Node 20, which lacks it)", () => {
  it("runs its callbacks last in, first out, once, awaiting each", async () => {
    const order: string[] = [];
    const stack = new AsyncDisposableStack();
    stack.defer(() => void order.push("first"));
    stack.defer(async () => {
      await new Promise((resolve) => setImmediate(resolve));
      order.push("second");
    });
    stack.use({ [Symbol.asyncDispose]: async () => void order.push("async disposable") });
    stack.use({ [Symbol.dispose]: () => void order.push("disposable") });
    expect(stack.adopt("value", (value) => void order.push(`adopted ${value}`))).toBe("value");
    stack.use(null);
    await stack.disposeAsync();
    await stack.disposeAsync();
    expect(order).toEqual(["adopted value", "disposable", "async disposable", "second", "first"]);
    expect(stack.disposed).toBe(true);
  });

  it("runs every callback when some fail, rethrowing one failure as it is and several together", async () => {
    const ran: number[] = [];
    const one = new AsyncDisposableStack();
    one.defer(() => void ran.push(1));
    one.defer(() => {
      throw new Error("stop failed");
    });
    one.defer(() => void ran.push(3));
    await expect(one.disposeAsync()).rejects.toThrow("stop failed");
    expect(ran).toEqual([3, 1]);

    const two = new AsyncDisposableStack();
    two.defer(() => Promise.reject(new Error("a")));
    two.defer(() => Promise.reject(new Error("b")));
    const error = await two.disposeAsync().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).errors.map((e: Error) => e.message)).toEqual(["b", "a"]);
  });

  it("moves its callbacks to a new stack, and refuses new ones once disposed", async () => {
    const ran: string[] = [];
    const setup = new AsyncDisposableStack();
    setup.defer(() => void ran.push("kept"));
    const kept = setup.move();
    await setup.disposeAsync();
    expect(ran).toEqual([]);
    expect(() => setup.defer(() => undefined)).toThrow(ReferenceError);
    await kept[Symbol.asyncDispose]();
    expect(ran).toEqual(["kept"]);
  });

  it("is disposed by `await using` at the end of its block, also when the block throws", async () => {
    const ran: string[] = [];
    const block = async () => {
      await using stack = new AsyncDisposableStack();
      stack.defer(() => void ran.push("disposed"));
      throw new Error("setup failed");
    };
    await expect(block()).rejects.toThrow("setup failed");
    expect(ran).toEqual(["disposed"]);
  });
});
