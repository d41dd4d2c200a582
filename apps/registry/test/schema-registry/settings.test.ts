import { describe, expect, it } from "vitest";
import { COMPATIBILITY_LEVELS } from "@stream-registry/core";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { avroRecord, expectError, schemaRegistryClient } from "../support/schema-registry-client.ts";

const base = avroRecord("Setting", ["a"]);
/** Not BACKWARD compatible with `base` (a field without a default), but FORWARD compatible. */
const added = avroRecord("Setting", ["a", "b"]);

/**
 * Compatibility levels and modes over HTTP (issue 12): /config and /mode, globally and per
 * subject, and what they do to registrations. The tests run in order: they change global settings.
 */
describe("schema registry config and mode", () => {
  const registry = useRegistryProcess("pglite");
  const sr = () => schemaRegistryClient(registry().url);

  it("starts BACKWARD and READWRITE, as Confluent", async () => {
    expect((await sr().get("/config")).body).toEqual({ compatibilityLevel: "BACKWARD" });
    expect((await sr().get("/mode")).body).toEqual({ mode: "READWRITE" });
  });

  it("sets the global level (PUT takes compatibility, GET returns compatibilityLevel) and resets it", async () => {
    expect((await sr().put("/config", { compatibility: "FULL_TRANSITIVE" })).body).toEqual({
      compatibility: "FULL_TRANSITIVE",
    });
    expect((await sr().get("/config")).body).toEqual({ compatibilityLevel: "FULL_TRANSITIVE" });
    expect((await sr().delete("/config")).body).toEqual({ compatibilityLevel: "FULL_TRANSITIVE" });
    expect((await sr().get("/config")).body).toEqual({ compatibilityLevel: "BACKWARD" });
  });

  it("takes every level Confluent has, and refuses others with 42203, changing nothing", async () => {
    expect(COMPATIBILITY_LEVELS).toHaveLength(7);
    for (const level of COMPATIBILITY_LEVELS) {
      expect((await sr().put("/config/levels-value", { compatibility: level })).status).toBe(200);
      expect((await sr().get("/config/levels-value")).body).toEqual({ compatibilityLevel: level });
    }
    for (const bad of [
      { compatibility: "backward" },
      { compatibility: "SIDEWAYS" },
      { compatibility: 3 },
      {},
    ]) {
      expectError(await sr().put("/config/levels-value", bad), 422, 42203, /compatibility/);
    }
    expectError(await sr().put("/config", { compatibility: null }), 422, 42203);
    expect((await sr().get("/config/levels-value")).body).toEqual({ compatibilityLevel: "FULL_TRANSITIVE" });
  });

  it("answers a subject without a level of its own 40408, or the global one with defaultToGlobal", async () => {
    expectError(
      await sr().get("/config/plain-value"),
      404,
      40408,
      /does not have subject-level compatibility/,
    );
    expect((await sr().get("/config/plain-value?defaultToGlobal=true")).body).toEqual({
      compatibilityLevel: "BACKWARD",
    });
    expectError(await sr().delete("/config/plain-value"), 404, 40408);
  });

  it("checks registrations at the subject's level, else the global one", async () => {
    await sr().register("level-value", base);
    expectError(
      await sr().post("/subjects/level-value/versions", { schema: JSON.stringify(added) }),
      409,
      409,
    );
    await sr().put("/config/level-value", { compatibility: "FORWARD" });
    await sr().register("level-value", added);
    expect((await sr().delete("/config/level-value")).body).toEqual({ compatibilityLevel: "FORWARD" });
    await sr().put("/config", { compatibility: "NONE" });
    await sr().register("level-value", avroRecord("Unrelated", ["x"]));
    await sr().delete("/config");
    expect((await sr().get("/subjects/level-value/versions")).body).toEqual([1, 2, 3]);
  });

  it("refuses writes in READONLY mode with 42205 and still serves reads; a subject's mode overrides", async () => {
    await sr().register("ro-value", base);
    expect((await sr().put("/mode", { mode: "READONLY" })).body).toEqual({ mode: "READONLY" });
    try {
      expectError(
        await sr().post("/subjects/ro-value/versions", { schema: JSON.stringify(avroRecord("RO2", ["a"])) }),
        422,
        42205,
        /read-only/,
      );
      expectError(await sr().delete("/subjects/ro-value/versions/1"), 422, 42205);
      expectError(await sr().delete("/subjects/ro-value"), 422, 42205);
      expect((await sr().get("/subjects/ro-value/versions/1")).status).toBe(200);
      expect((await sr().put("/mode/rw-value", { mode: "READWRITE" })).body).toEqual({ mode: "READWRITE" });
      await sr().register("rw-value", base);
      expectError(await sr().get("/mode/ro-value"), 404, 40409);
      expect((await sr().get("/mode/ro-value?defaultToGlobal=true")).body).toEqual({ mode: "READONLY" });
    } finally {
      await sr().put("/mode", { mode: "READWRITE" });
    }
    expect((await sr().delete("/mode/rw-value")).body).toEqual({ mode: "READWRITE" });
    expectError(await sr().delete("/mode/rw-value"), 404, 40409);
  });

  it("refuses an unknown mode with 42204, and IMPORT where subjects exist unless forced", async () => {
    for (const bad of [{ mode: "READ_ONLY" }, { mode: "" }, { mode: ["IMPORT"] }, {}]) {
      expectError(await sr().put("/mode", bad), 422, 42204, /mode/);
    }
    expectError(await sr().put("/mode", { mode: "IMPORT" }), 422, 42205, /existing subjects/);
    expectError(await sr().put("/mode/ro-value", { mode: "IMPORT" }), 422, 42205);
    expect((await sr().get("/mode")).body).toEqual({ mode: "READWRITE" });
  });

  it("imports schemas with their ids and versions in IMPORT mode, unchecked; new ids then start above them", async () => {
    expect((await sr().put("/mode/imported-value", { mode: "IMPORT" })).body).toEqual({ mode: "IMPORT" });
    const schema = (record: string) => JSON.stringify(avroRecord(record, ["a"]));
    const imported = await sr().post("/subjects/imported-value/versions", {
      schema: schema("I1"),
      id: 7000,
      version: 5,
    });
    expect(imported.body).toEqual({ id: 7000 });
    // Unrelated to version 5, yet taken: IMPORT checks nothing.
    await sr().register("imported-value", schema("I2"), { id: 7001 });
    expect((await sr().get("/subjects/imported-value/versions")).body).toEqual([5, 6]);
    expectError(
      await sr().post("/subjects/imported-value/versions", { schema: schema("I3") }),
      422,
      42205,
      /import mode/,
    );
    expectError(
      await sr().post("/subjects/imported-value/versions", { schema: schema("I3"), id: 7000 }),
      422,
      42205,
      /another schema/,
    );
    expectError(
      await sr().post("/subjects/imported-value/versions", { schema: schema("I3"), id: 7002, version: 5 }),
      422,
      42205,
      /exists/,
    );
    // Outside IMPORT mode ids and versions are the registry's to give.
    expectError(
      await sr().post("/subjects/other-value/versions", { schema: schema("I4"), id: 9000 }),
      422,
      42205,
    );
    expect(await sr().register("other-value", schema("I5"))).toBeGreaterThan(7001);
  });
});
