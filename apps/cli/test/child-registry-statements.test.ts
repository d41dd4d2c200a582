import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/index.ts";
import { startFakeRegistry, type ReceivedRequest } from "./support/fake-registry.ts";
import { runMain } from "./support/run-main.ts";

// What srctl sends for SHOW / SUSPEND / RESUME / DROP CHILD REGISTRY and prints of the answers
// (schema.graphql), against a registry that answers as the schema says; the registry's own
// behaviour is apps/registry/test/tree-child-admin.test.ts.

const fields = {
  Query: ["childRegistries"],
  Mutation: ["suspendChildRegistry", "resumeChildRegistry", "dropChildRegistry"],
};

const aws = {
  path: "/aws",
  url: "http://aws/graphql",
  registryId: "id-aws",
  version: "0.1.0",
  health: { status: "UP", lastError: null },
  registeredAt: "2026-12-01T10:00:00.000Z",
  suspendedAt: null,
  suspendedBy: null,
};
const gcp = {
  ...aws,
  path: "/gcp",
  url: "http://gcp/graphql",
  registryId: "id-gcp",
  suspendedAt: "2026-12-03T09:00:00.000Z",
  suspendedBy: "token:admin",
};

function answering(data: Record<string, unknown>) {
  return (_request: ReceivedRequest) => ({ body: { data } });
}

describe("child registry statements", () => {
  it("SHOW CHILD REGISTRIES: a table of the children, a suspended one saying since when and by whom", async () => {
    await using registry = await startFakeRegistry(fields, answering({ childRegistries: [aws, gcp] }));
    const run = await runMain(["--registry", registry.url, "-e", "SHOW CHILD REGISTRIES;"]);
    expect(run).toMatchObject({ code: ExitCode.OK, stderr: "" });
    expect(run.stdout.split("\n").slice(2, 4)).toEqual([
      "| /aws      | http://aws/graphql | UP                                                      | 2026-12-01T10:00:00.000Z |",
      "| /gcp      | http://gcp/graphql | SUSPENDED since 2026-12-03T09:00:00.000Z by token:admin | 2026-12-01T10:00:00.000Z |",
    ]);
    expect(registry.requests.at(-1)!.query).toContain("childRegistries {");
  });

  it.each([
    [
      "SUSPEND",
      "suspendChildRegistry",
      gcp,
      "child registry /gcp: suspended: it is not called, and its tokens are refused",
    ],
    ["RESUME", "resumeChildRegistry", aws, "child registry /aws: resumed: it is called again"],
    [
      "DROP",
      "dropChildRegistry",
      aws,
      "child registry /aws: dropped: its registration, keys and index rows are gone",
    ],
  ])(
    "%s CHILD REGISTRY sends the path and says what became of the child",
    async (verb, field, child, said) => {
      await using registry = await startFakeRegistry(
        fields,
        answering({ [field]: { child, userErrors: [] } }),
      );
      const run = await runMain([
        "--registry",
        registry.url,
        "-e",
        `${verb} CHILD REGISTRY "${child.path}";`,
      ]);
      expect(run).toMatchObject({ code: ExitCode.OK, stderr: "", stdout: `${said}\n` });
      const sent = registry.requests.at(-1)!;
      expect(sent.query).toContain(`${field}(input: $input)`);
      expect(sent.variables).toEqual({ input: { path: child.path } });
    },
  );

  it("exits NOT_FOUND for a child the registry does not have, and DENIED for a caller who is not an admin", async () => {
    await using missing = await startFakeRegistry(
      fields,
      answering({
        dropChildRegistry: {
          child: null,
          userErrors: [
            { code: "NOT_FOUND", field: ["input", "path"], message: "no child registry owns /gcp here" },
          ],
        },
      }),
    );
    const gone = await runMain(["--registry", missing.url, "-e", 'DROP CHILD REGISTRY "/gcp";']);
    expect(gone.code).toBe(ExitCode.NOT_FOUND);
    expect(gone.stderr).toContain("no child registry owns /gcp here");
    await using denied = await startFakeRegistry(fields, () => ({
      body: {
        data: null,
        errors: [
          {
            message: "suspending a child registry needs the admin role on namespace /",
            extensions: { code: "FORBIDDEN" },
          },
        ],
      },
    }));
    const refused = await runMain(["--registry", denied.url, "-e", 'SUSPEND CHILD REGISTRY "/aws";']);
    expect(refused.code).toBe(ExitCode.DENIED);
    expect(refused.stderr).toContain("needs the admin role");
  });
});
