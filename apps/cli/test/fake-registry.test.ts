import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createSrctl, ExitCode } from "../src/index.ts";
import { startFakeRegistry } from "./support/fake-registry.ts";
import { runMain } from "./support/run-main.ts";

// No registry has child namespaces or the planned operations yet, so these cases talk to a small
// local HTTP server that answers as such a registry will (see support/fake-registry.ts).

const schemasSql = fileURLToPath(new URL("./fixtures/schemas.sql", import.meta.url));
const today = { Query: ["namespace", "streams", "stream"], Mutation: ["createStream"] };

describe("srctl against registries that do what the real one cannot yet", () => {
  it("prints a partial result, one warning per missing namespace, and exits with the partial code", async () => {
    await using registry = await startFakeRegistry(today, () => ({
      body: {
        data: {
          streams: {
            nodes: [
              {
                name: "widgets_v0",
                bindings: [{ cluster: { name: "cluster001" } }],
                defaultBinding: { cluster: { name: "cluster001" } },
              },
            ],
            pageInfo: { hasNextPage: false, endCursor: null },
          },
        },
        errors: [
          {
            message: "child registry did not answer",
            extensions: { code: "CHILD_UNAVAILABLE", namespace: "/aws" },
          },
          {
            message: "child registry did not answer",
            extensions: { code: "CHILD_UNAVAILABLE", namespace: "/gcp" },
          },
        ],
      },
    }));
    const run = await runMain(["--registry", registry.url, "-e", "SHOW STREAMS;"]);
    expect(run.code).toBe(ExitCode.PARTIAL);
    expect(run.stdout).toBe(
      "| stream     | bindings | default cluster |\n|------------+----------+-----------------|\n| widgets_v0 |        1 | cluster001      |\n",
    );
    expect(run.stderr).toBe(
      "warning: CHILD_UNAVAILABLE (namespace /aws): child registry did not answer\n" +
        "warning: CHILD_UNAVAILABLE (namespace /gcp): child registry did not answer\n",
    );

    const json = await runMain(["--registry", registry.url, "--output", "json", "-e", "SHOW STREAMS;"]);
    expect(json.code).toBe(ExitCode.PARTIAL);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: true,
      exitCode: ExitCode.PARTIAL,
      result: { rows: [{ stream: "widgets_v0" }] },
      warnings: [
        { code: "CHILD_UNAVAILABLE", namespace: "/aws", message: "child registry did not answer" },
        { code: "CHILD_UNAVAILABLE", namespace: "/gcp", message: "child registry did not answer" },
      ],
    });
  });

  it("treats a fault that leaves no data as an error with the code's exit code", async () => {
    await using registry = await startFakeRegistry(today, () => ({
      body: {
        data: null,
        errors: [
          { message: "the registry's database is unavailable", extensions: { code: "DATABASE_UNAVAILABLE" } },
        ],
      },
    }));
    const report = await createSrctl({ registry: registry.url }).run('CREATE STREAM "s";');
    expect(report.exitCode).toBe(ExitCode.UNAVAILABLE);
    expect(report.results[0]?.error).toEqual({
      code: "DATABASE_UNAVAILABLE",
      message: "DATABASE_UNAVAILABLE: the registry's database is unavailable",
      exitCode: ExitCode.UNAVAILABLE,
    });
  });

  it("recognises a missing operation from the validation error when introspection is off", async () => {
    await using registry = await startFakeRegistry(undefined, () => ({
      status: 400,
      body: {
        errors: [
          {
            message: `Cannot query field "registerTypeSchema" on type "Mutation".`,
            extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
          },
        ],
      },
    }));
    const report = await createSrctl({ registry: registry.url }).run(
      'REGISTER TYPE SCHEMA "Widget" ( { "type": "string" } ) ON STREAM "widgets_v0";',
    );
    expect(report.exitCode).toBe(ExitCode.UNSUPPORTED);
    expect(report.results[0]?.error?.message).toBe(
      `the registry at ${registry.url} does not support REGISTER TYPE SCHEMA yet (no registerTypeSchema mutation)`,
    );
    expect(registry.requests).toHaveLength(2); // introspection, then the mutation itself
  });

  it("reports a registry whose operation takes another shape than srctl sends as a mismatch, not bad input", async () => {
    await using registry = await startFakeRegistry(
      { Query: today.Query, Mutation: ["registerKeySchema"] },
      () => ({
        status: 400,
        body: {
          errors: [
            {
              message: `Unknown type "RegisterKeySchemaInput".`,
              extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
            },
          ],
        },
      }),
    );
    const report = await createSrctl({ registry: registry.url }).run(
      'REGISTER KEY SCHEMA ( "string" ) ON STREAM "s";',
    );
    expect(report.exitCode).toBe(ExitCode.UNSUPPORTED);
    expect(report.results[0]?.error?.message).toBe(
      `the registry at ${registry.url} does not accept srctl's REGISTER KEY SCHEMA (Unknown type "RegisterKeySchemaInput".); srctl and the registry disagree on the API`,
    );
  });

  it("starts using a planned operation once the registry has it, sending the FILE's content", async () => {
    await using registry = await startFakeRegistry(
      { Query: today.Query, Mutation: ["registerTypeSchema"] },
      () => ({
        body: {
          data: {
            registerTypeSchema: {
              schema: { subject: "widgets_v0-Widget", version: 3, id: 347 },
              userErrors: [],
            },
          },
        },
      }),
    );
    const run = await runMain(["--registry", registry.url, "apply", "-f", schemasSql]);
    expect(run.code).toBe(ExitCode.OK);
    // The seed's table (seeds/000, "Single Type Schema per Stream").
    expect(run.stdout).toBe(
      "| Subject           | Version |  Id |\n|-------------------+---------+-----|\n| widgets_v0-Widget |       3 | 347 |\n",
    );
    const sent = registry.requests.at(-1)?.variables?.input as Record<string, string>;
    expect(sent).toMatchObject({ stream: "widgets_v0", typeName: "Widget" });
    expect(JSON.parse(sent.schema!)).toMatchObject({ type: "record", name: "Widget" });
  });
});
