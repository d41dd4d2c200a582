import { beforeAll, describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { avroRecord, expectError, schemaRegistryClient } from "../support/schema-registry-client.ts";

/** Three compatible versions of a record of its own (a record shared by two subjects shares its ids). */
const versionsOf = (record: string) => [
  avroRecord(record, ["a"]),
  avroRecord(record, ["a", "b"], true),
  avroRecord(record, ["a", "b", "c"], true),
];
const [v1] = versionsOf("Gadget");

/**
 * Confluent's two-step deletes over HTTP (issue 12): a soft delete hides versions and keeps their
 * ids readable; a permanent delete only follows a soft one; each wrong step has its own code.
 */
describe("schema registry deletes", () => {
  const registry = useRegistryProcess("pglite");
  const sr = () => schemaRegistryClient(registry().url);

  /** A subject with versions 1 to 3, and their ids. */
  async function subject(name: string): Promise<number[]> {
    const ids = [];
    for (const schema of versionsOf(name.replace(/\W/g, "_"))) ids.push(await sr().register(name, schema));
    return ids;
  }

  beforeAll(async () => {
    await subject("versions-value");
  });

  it("soft-deletes a version: hidden from lists and reads, its id still served, shown with deleted=true", async () => {
    const [, id2] = await subject("soft-value");
    expect((await sr().delete("/subjects/soft-value/versions/2")).body).toBe(2);
    expect((await sr().get("/subjects/soft-value/versions")).body).toEqual([1, 3]);
    expect((await sr().get("/subjects/soft-value/versions?deleted=true")).body).toEqual([1, 2, 3]);
    expectError(await sr().get("/subjects/soft-value/versions/2"), 404, 40402);
    expect((await sr().get("/subjects/soft-value/versions/2?deleted=true")).body).toMatchObject({ id: id2 });
    expect((await sr().get(`/schemas/ids/${id2}`)).status).toBe(200);
    expect((await sr().get(`/schemas/ids/${id2}/versions`)).body).toEqual([]);
    expect((await sr().get(`/schemas/ids/${id2}/versions?deleted=true`)).body).toEqual([
      { subject: "soft-value", version: 2 },
    ]);
    // Soft again: 40406; a permanent delete of a live version: 40407.
    expectError(await sr().delete("/subjects/soft-value/versions/2"), 404, 40406, /soft deleted/);
    expectError(await sr().delete("/subjects/soft-value/versions/3?permanent=true"), 404, 40407);
    expect((await sr().delete("/subjects/soft-value/versions/2?permanent=true")).body).toBe(2);
    expect((await sr().get("/subjects/soft-value/versions?deleted=true")).body).toEqual([1, 3]);
    expectError(await sr().delete("/subjects/soft-value/versions/2?permanent=true"), 404, 40402);
  });

  it("deletes latest and -1 as the newest live version", async () => {
    await subject("latest-value");
    expect((await sr().delete("/subjects/latest-value/versions/latest")).body).toBe(3);
    expect((await sr().delete("/subjects/latest-value/versions/-1")).body).toBe(2);
    expect((await sr().get("/subjects/latest-value/versions/latest")).body.version).toBe(1);
    // Permanently, latest is the newest of all (soft-deleted ones too).
    expect((await sr().delete("/subjects/latest-value/versions/latest?permanent=true")).body).toBe(3);
  });

  it("soft-deletes a subject, then permanently: 40404 and 40405 for the steps out of order", async () => {
    const ids = await subject("whole-value");
    expectError(await sr().delete("/subjects/whole-value?permanent=true"), 404, 40405, /not deleted first/);
    expect((await sr().delete("/subjects/whole-value")).body).toEqual([1, 2, 3]);
    expect((await sr().get("/subjects")).body).not.toContain("whole-value");
    expect((await sr().get("/subjects?deleted=true")).body).toContain("whole-value");
    expectError(await sr().get("/subjects/whole-value/versions"), 404, 40401);
    expectError(await sr().get("/subjects/whole-value/versions/latest"), 404, 40401);
    expectError(await sr().delete("/subjects/whole-value"), 404, 40404, /soft deleted/);
    const first = JSON.stringify(versionsOf("whole_value")[0]);
    expectError(await sr().post("/subjects/whole-value", { schema: first }), 404, 40401);
    const found = await sr().post("/subjects/whole-value?deleted=true", { schema: first });
    expect(found.body).toMatchObject({ version: 1, id: ids[0] });
    expect((await sr().get(`/schemas/ids/${ids[0]}`)).status).toBe(200);
    expect((await sr().delete("/subjects/whole-value?permanent=true")).body).toEqual([1, 2, 3]);
    expect((await sr().get("/subjects?deleted=true")).body).not.toContain("whole-value");
    // Ids no version holds any more are gone, unless another subject holds the schema.
    expectError(await sr().get(`/schemas/ids/${ids[0]}`), 404, 40403);
    expectError(await sr().delete("/subjects/whole-value"), 404, 40401);
  });

  it("keeps an id another subject holds when one subject is removed", async () => {
    const id = await sr().register("keeper-a", v1);
    expect(await sr().register("keeper-b", v1)).toBe(id);
    await sr().delete("/subjects/keeper-a");
    await sr().delete("/subjects/keeper-a?permanent=true");
    expect((await sr().get(`/schemas/ids/${id}/subjects`)).body).toEqual(["keeper-b"]);
  });

  it("gives a schema soft-deleted and registered again a new version with the same id", async () => {
    const id = await sr().register("back-value", v1);
    await sr().delete("/subjects/back-value/versions/1");
    expect(await sr().register("back-value", v1)).toBe(id);
    expect((await sr().get("/subjects/back-value/versions?deleted=true")).body).toEqual([1, 2]);
    expect((await sr().post("/subjects/back-value", { schema: JSON.stringify(v1) })).body.version).toBe(2);
  });

  it("continues numbering after a soft delete, and starts at 1 after a permanent one", async () => {
    await sr().register("numbers-value", v1);
    await sr().delete("/subjects/numbers-value");
    await sr().register("numbers-value", avroRecord("Other", ["x"]));
    expect((await sr().get("/subjects/numbers-value/versions")).body).toEqual([2]);
    await sr().delete("/subjects/numbers-value");
    await sr().delete("/subjects/numbers-value?permanent=true");
    await sr().register("numbers-value", v1);
    expect((await sr().get("/subjects/numbers-value/versions")).body).toEqual([1]);
  });

  it("drops a subject's compatibility level and mode with it", async () => {
    await sr().register("configured-value", v1);
    await sr().put("/config/configured-value", { compatibility: "NONE" });
    await sr().put("/mode/configured-value", { mode: "READWRITE" });
    await sr().delete("/subjects/configured-value");
    expectError(await sr().get("/config/configured-value"), 404, 40408);
    expectError(await sr().get("/mode/configured-value"), 404, 40409);
  });

  it("refuses deletes of what does not exist: 40401, 40402, and 42202 for a version that cannot be", async () => {
    expectError(await sr().delete("/subjects/never-value"), 404, 40401);
    expectError(await sr().delete("/subjects/never-value/versions/1"), 404, 40401);
    expectError(await sr().delete("/subjects/versions-value/versions/9"), 404, 40402);
    expectError(await sr().delete("/subjects/versions-value/versions/0"), 422, 42202);
    expect((await sr().get("/subjects/versions-value/versions")).body).toEqual([1, 2, 3]);
  });
});
