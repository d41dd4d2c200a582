import { describe, expect, it } from "vitest";
import { ChildRoutes } from "../src/services/child-routes.ts";

const route = (name: string) => ({
  name,
  url: `http://${name}.example/graphql`,
  registryId: name,
  suspended: false,
});

describe("the child routes kept in memory", () => {
  it("reads the routes once a second, and again at once after a registration", async () => {
    let reads = 0;
    let rows = [route("aws")];
    const routes = new ChildRoutes(async () => {
      reads++;
      return rows;
    });
    expect(await routes.find("aws", 1_000)).toEqual(route("aws"));
    expect(await routes.find("gcp", 1_500)).toBeNull();
    expect(await routes.all(1_999)).toEqual([route("aws")]);
    expect(reads).toBe(1);
    rows = [route("aws"), route("gcp")];
    // Read again once a second has passed (another process may have registered one)...
    expect(await routes.find("gcp", 2_000)).toEqual(route("gcp"));
    expect(reads).toBe(2);
    // ...or at once after this process registered or unregistered one.
    rows = [route("gcp")];
    routes.forget();
    expect(await routes.find("aws", 2_001)).toBeNull();
    expect(reads).toBe(3);
  });

  it("does not keep a read that began before a registration", async () => {
    let release: (rows: ReturnType<typeof route>[]) => void = () => {};
    let reads = 0;
    const routes = new ChildRoutes(() => {
      reads++;
      return reads === 1 ? new Promise((resolve) => (release = resolve)) : Promise.resolve([route("gcp")]);
    });
    const stale = routes.all(0);
    routes.forget(); // a registration committed while the first read was under way
    release([route("aws")]);
    expect(await stale).toEqual([route("aws")]);
    expect(await routes.all(1)).toEqual([route("gcp")]);
    expect(reads).toBe(2);
  });
});
