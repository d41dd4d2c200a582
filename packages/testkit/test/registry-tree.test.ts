import { describe, expect, it } from "vitest";
import { AsyncDisposableStack } from "../src/disposable-stack.ts";
import { eventually } from "../src/registry/eventually.ts";
import { startRegistryTree } from "../src/registry/registry-tree.ts";
import { registriesOf } from "./support/processes.ts";

// A tree whose build fails, or whose caller stops waiting for it (a beforeAll that timed out),
// leaves no registry running: each is disposed as soon as it exists.
describe("startRegistryTree when the build does not complete", { timeout: 180_000 }, () => {
  it("stops the registries it started when the build fails", async () => {
    // Both start; /aws/deep then has no parent to register with.
    await expect(startRegistryTree(["/", "/aws/deep"])).rejects.toThrow("/aws/deep has no parent /aws");
    expect(registriesOf(process.pid)).toEqual([]);
  });

  it("stops them when its stack is disposed while the tree is being built", async () => {
    const stack = new AsyncDisposableStack();
    const building = startRegistryTree(["/", "/aws"], { stack });
    const failed = building.then(
      () => undefined,
      (error: unknown) => error,
    );
    await eventually(
      async () => registriesOf(process.pid).length > 0 || undefined,
      60_000,
      "a registry to start",
    );
    await stack.disposeAsync();
    expect(registriesOf(process.pid)).toEqual([]);
    expect(await failed).toBeInstanceOf(Error);
    expect(registriesOf(process.pid)).toEqual([]);
  });
});
