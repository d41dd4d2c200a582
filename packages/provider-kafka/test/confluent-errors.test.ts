import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import {
  CONFLUENT_ERROR_CODES,
  SCHEMA_ERROR_REASONS,
  isSchemaManagerError,
  schemaErrorReasonOf,
  type SchemaContext,
} from "@stream-registry/provider-api";
import { freePort } from "@stream-registry/testkit";
import { schemaErrorOfAnswer } from "../src/schema-registry/confluent-errors.ts";
import { createConfluentSchemaManager } from "../src/index.ts";

const where = "GET http://sr/subjects";

describe("Confluent error answers as SchemaManagerErrors", () => {
  it("give every code of provider-api's table its reason back (the built-in's REST API maps the other way)", () => {
    for (const reason of SCHEMA_ERROR_REASONS) {
      const code = CONFLUENT_ERROR_CODES[reason];
      expect(schemaErrorReasonOf(code)).toBe(reason);
      const error = schemaErrorOfAnswer(
        Math.floor(code >= 10_000 ? code / 100 : code),
        { error_code: code, message: "m" },
        where,
      );
      expect([error.reason, error.retriable, error.message]).toEqual([reason, false, "m"]);
    }
    expect(new Set(Object.values(CONFLUENT_ERROR_CODES)).size).toBe(SCHEMA_ERROR_REASONS.length);
  });

  it("keep an incompatibility's message among its messages", () => {
    const error = schemaErrorOfAnswer(
      409,
      { error_code: 409, message: "READER_FIELD_MISSING_DEFAULT_VALUE" },
      where,
    );
    expect([error.reason, error.messages]).toEqual(["INCOMPATIBLE", ["READER_FIELD_MISSING_DEFAULT_VALUE"]]);
  });

  it("make the registry's own failures and its rate limit retriable, without a reason", () => {
    for (const [status, code] of [
      [500, 50001],
      [500, 50002],
      [503, undefined],
      [429, 429],
    ] as const) {
      const error = schemaErrorOfAnswer(
        status,
        code === undefined ? "<html>" : { error_code: code, message: "down" },
        where,
      );
      expect([error.reason, error.retriable]).toEqual([undefined, true]);
    }
  });

  it("point a refused credential at the password, and any other answer at the url: not retriable", () => {
    const auth = schemaErrorOfAnswer(401, { error_code: 401, message: "not authenticated" }, where);
    expect([auth.retriable, auth.issues[0]?.field]).toEqual([false, ["schema.registry", "password"]]);
    const forbidden = schemaErrorOfAnswer(403, { error_code: 40301, message: "no" }, where);
    expect(forbidden.issues[0]?.field).toEqual(["schema.registry", "password"]);
    const other = schemaErrorOfAnswer(404, "Not Found", where);
    expect([other.reason, other.retriable, other.issues[0]?.field]).toEqual([
      undefined,
      false,
      ["schema.registry", "url"],
    ]);
  });

  it("make an unreachable registry retriable, and an aborted call reject with the signal's reason", async () => {
    const port = await freePort();
    const context = (signal: AbortSignal): SchemaContext => ({
      signal,
      cluster: {
        namespace: "/",
        name: "c1",
        config: { "schema.registry": { url: `http://127.0.0.1:${port}` } },
      },
    });
    const manager = createConfluentSchemaManager();
    const error: unknown = await manager
      .getSubjects(context(new AbortController().signal))
      .catch((e: unknown) => e);
    expect(isSchemaManagerError(error) && [error.reason, error.retriable]).toEqual([undefined, true]);
    expect((error as Error).message).toMatch(/unreachable/);
    const aborted = AbortSignal.abort(new Error("shutting down"));
    await expect(manager.getSubjects(context(aborted))).rejects.toThrow("shutting down");
  });

  it("refuse an answer over 4 MiB (something that is not a schema registry), not retriable", async () => {
    const server = createServer((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`["${"s".repeat(5 * 1024 * 1024)}"]`);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const error: unknown = await createConfluentSchemaManager()
      .getSubjects({
        signal: new AbortController().signal,
        cluster: {
          namespace: "/",
          name: "c1",
          config: { "schema.registry": { url: `http://127.0.0.1:${port}` } },
        },
      })
      .catch((e: unknown) => e);
    expect(isSchemaManagerError(error) && error.retriable).toBe(false);
    expect((error as Error).message).toContain("more than 4194304 bytes");
  });
});
