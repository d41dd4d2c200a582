import { expect, expectTypeOf, it } from "vitest";
import { Prisma } from "../src/generated/prisma/client.ts";
import * as store from "../src/index.ts";

// The store boundary is a type (docs/architecture.md, "The store layer"): typecheck fails here
// if the handles code outside store holds ever expose Prisma again.
it("hands out the client and the transaction as handles nothing outside store can call", () => {
  expectTypeOf<store.Database["prisma"]>().not.toHaveProperty("stream");
  expectTypeOf<store.Database["prisma"]>().not.toHaveProperty("$queryRaw");
  expectTypeOf<store.Database["prisma"]>().not.toHaveProperty("$transaction");
  expectTypeOf<store.Tx>().not.toHaveProperty("$executeRaw");
  expectTypeOf<store.Tx>().not.toHaveProperty("binding");
});

it("exports no SQL fragment: the statements store's modules share stay inside it", () => {
  const fragments = Object.entries(store).filter(
    ([name, value]) => value instanceof Prisma.Sql || /Sql$/.test(name),
  );
  expect(fragments.map(([name]) => name)).toEqual([]);
});
