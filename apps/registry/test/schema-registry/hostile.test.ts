import { beforeAll, describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import {
  avroRecord,
  expectError,
  schemaRegistryClient,
  type RestResponse,
} from "../support/schema-registry-client.ts";

const valid = JSON.stringify(avroRecord("Hostile", ["a"]));

/**
 * Hostile requests to the REST API (issue 12, Must 6): each is refused with a clear message naming
 * the field and the rule and Confluent's code, nothing changes, and the registry keeps answering.
 */
describe("schema registry under hostile input", () => {
  const registry = useRegistryProcess("pglite");
  const sr = () => schemaRegistryClient(registry().url);
  const register = (body: unknown, headers?: Record<string, string>) =>
    sr().request("POST", "/subjects/target-value/versions", body, headers);

  beforeAll(async () => {
    await sr().register("target-value", valid);
  });

  /** After each case the registry holds what it held, and answers. */
  async function unchanged(): Promise<void> {
    expect((await sr().get("/subjects?deleted=true")).body).toEqual(["target-value"]);
    expect((await sr().get("/subjects/target-value/versions?deleted=true")).body).toEqual([1]);
  }

  it("refuses bodies that are too large (413), not JSON (400), or of another media type (415)", async () => {
    const huge = await register(JSON.stringify({ schema: "x".repeat(11 * 1024 * 1024) }));
    expectError(huge, 413, 413, /larger than/);
    expectError(await register("{ not json"), 400, 400, /not valid JSON/);
    expectError(await register(""), 400, 400);
    expectError(await register(valid, { "content-type": "text/plain" }), 415, 415, /application\/json/);
    expect(
      (await register({ schema: valid }, { "content-type": "application/json; charset=utf-8" })).status,
    ).toBe(200);
    expect((await register({ schema: valid }, { "content-type": "application/octet-stream" })).status).toBe(
      200,
    );
    await unchanged();
  });

  it("checks the body field by field, naming the field and the rule", async () => {
    const cases: [unknown, number, RegExp][] = [
      [[valid], 422, /must be a JSON object/],
      ["just a string", 422, /must be a JSON object/],
      [null, 422, /must be a JSON object/],
      [{}, 42201, /Field "schema" is required/],
      [{ schema: 42 }, 42201, /Field "schema" .* not a number/],
      [{ schema: { type: "string" } }, 42201, /Field "schema" .* not a object/],
      [{ schema: valid, schemaType: "XML" }, 42201, /Field "schemaType" must be one of AVRO, JSON, PROTOBUF/],
      [{ schema: valid, schemaType: 1 }, 42201, /schemaType/],
      [{ schema: valid, references: {} }, 42201, /Field "references" must be an array/],
      [{ schema: valid, references: ["x"] }, 42201, /references\[0\]" must be an object/],
      [
        { schema: valid, references: [{ name: "n", subject: "s", version: "1" }] },
        42201,
        /references\[0\]\.version/,
      ],
      [
        { schema: valid, references: [{ name: 1, subject: "s", version: 1 }] },
        42201,
        /references\[0\]\.name/,
      ],
      [
        { schema: valid, references: [{ name: "n", subject: "\u0007", version: 1 }] },
        42201,
        /control character/,
      ],
      [{ schema: valid, version: "2" }, 42202, /Field "version" must be an integer/],
      [{ schema: valid, version: 2 ** 31 }, 42202, /Field "version"/],
      [{ schema: valid, id: -1 }, 422, /Field "id" must be an integer/],
      [{ schema: valid, id: 1.5 }, 422, /Field "id"/],
      [{ schema: "" }, 42201, /empty/],
      [{ schema: "not json at all" }, 42201, /AVRO/i],
      [{ schema: '{"type":"record","name":"R","fields":[{"name":"a","type":"strin"}]}' }, 42201, /strin/],
      [{ schema: "a\u0000b" }, 42201, /NUL/],
      [{ schema: "x".repeat(1024 * 1024 + 1) }, 42209, /Schema too large/],
    ];
    for (const [body, code, message] of cases) {
      const response = await register(JSON.stringify(body));
      expectError(response, code >= 10_000 ? Math.floor(code / 100) : code, code, message);
    }
    await unchanged();
  });

  it("refuses absurd versions (42202) and ids, and answers the largest valid ones as absent", async () => {
    for (const version of [
      "0",
      "-2",
      "2147483648",
      "99999999999999999999",
      "1e3",
      "0x10",
      "1.5",
      "abc",
      "%201",
      "LATEST",
    ]) {
      expectError(
        await sr().get(`/subjects/target-value/versions/${version}`),
        422,
        42202,
        /not a valid version/,
      );
      expectError(await sr().delete(`/subjects/target-value/versions/${version}`), 422, 42202);
    }
    expectError(await sr().get("/subjects/target-value/versions/2147483647"), 404, 40402);
    for (const id of ["0", "-1", "2147483648", "abc", "1e2"]) {
      expectError(await sr().get(`/schemas/ids/${id}`), 422, 422, /schema id .* is not valid/);
    }
    expectError(await sr().get("/schemas/ids/2147483647"), 404, 40403);
    await unchanged();
  });

  it("refuses subjects with control characters, NUL or over 255 characters (42208), and takes any other Unicode", async () => {
    for (const subject of ["%00", "a%0Ab", "%1B[31m", "tab%09", "%7F", encodeURIComponent("x".repeat(256))]) {
      expectError(await sr().get(`/subjects/${subject}/versions`), 422, 42208, /is not valid/);
      expectError(await sr().post(`/subjects/${subject}/versions`, { schema: valid }), 422, 42208);
      expectError(await sr().put(`/config/${subject}`, { compatibility: "NONE" }), 422, 42208);
    }
    // Not UTF-8, or not percent-encoding at all.
    expectError(await sr().get("/subjects/%ED%A0%80/versions"), 400, 400, /percent-encoding/);
    expectError(await sr().get("/subjects/%E0%A4%A/versions"), 400, 400);
    await unchanged();
    const unicode = "wïdgets-🚀-值/with slash";
    const id = await sr().register(unicode, valid);
    const read = await sr().get(`/subjects/${encodeURIComponent(unicode)}/versions/1`);
    expect(read.body).toMatchObject({ subject: unicode, id });
    expect((await sr().get("/subjects")).body).toContain(unicode);
    expect(await sr().register("x".repeat(255), valid)).toBe(id);
  });

  it("refuses unknown routes (404), methods (405) and bad flags (422) in Confluent's body", async () => {
    expectError(await sr().get("/nothing/here"), 404, 404);
    expectError(await sr().get("/subjects/target-value/versions/1/extra"), 404, 404);
    const wrong = await sr().request("PATCH", "/subjects/target-value/versions");
    expectError(wrong, 405, 405);
    expect(wrong.headers.get("allow")).toBe("GET, POST");
    expectError(await sr().get("/subjects?deleted=yes"), 422, 422, /"deleted" must be true or false/);
    expectError(await sr().get("/subjects?subjectPrefix=%00"), 422, 422, /"subjectPrefix" contains a NUL/);
    expectError(await sr().delete("/subjects/target-value?permanent=1"), 422, 422, /permanent/);
  });

  it("survives schemas made to exhaust the parser, and keeps answering", async () => {
    const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const tower = `${'{"type":"array","items":'.repeat(5000)}"string"${"}".repeat(5000)}`;
    const hostile: [string, unknown][] = [
      ["AVRO", deep(200_000)],
      ["JSON", deep(200_000)],
      ["AVRO", tower],
      ["JSON", JSON.stringify({ $ref: "#" })],
      ["JSON", JSON.stringify({ $ref: "http://169.254.169.254/latest/meta-data" })],
      ["PROTOBUF", `syntax = "proto3"; ${"message M { ".repeat(5000)}${"}".repeat(5000)}`],
      ["PROTOBUF", 'syntax = "proto3"; import "/etc/passwd"; message M { string a = 1; }'],
    ];
    const answers: RestResponse[] = [];
    for (const [i, [schemaType, schema]] of hostile.entries()) {
      answers.push(await sr().post(`/subjects/exhaust-${i}/versions`, { schema, schemaType }));
    }
    for (const answer of answers) {
      // Refused as invalid, or (where the schema is legal) registered: never a fault, never a hang.
      expect([200, 422]).toContain(answer.status);
      if (answer.status === 422) expect(answer.body.error_code).toBe(42201);
    }
    expect((await sr().get("/")).status).toBe(200);
  });
});
