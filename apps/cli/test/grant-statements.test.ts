import { describe, expect, it } from "vitest";
import { createSrctl, ExitCode } from "../src/index.ts";
import { startFakeRegistry } from "./support/fake-registry.ts";

// What GRANT, REVOKE and SHOW GRANTS send and print, against a fake registry (the registry's own
// tests, authorization.test.ts, check what it does with them).

const fields = { Query: ["grants"], Mutation: ["grant", "revoke"] };
const grant = {
  principal: "group:devs",
  role: "WRITER",
  namespace: "/aws",
  streamPrefix: "widgets_",
  createdBy: "token:admin",
  createdAt: "2026-12-02T00:00:00.000Z",
};

describe("grant statements", () => {
  it("sends GRANT and REVOKE as grant and revoke, the namespace as scope, --namespace as where it is kept", async () => {
    await using registry = await startFakeRegistry(fields, (request) => ({
      body: {
        data: request.query.includes("revoke(")
          ? { revoke: { grant, userErrors: [] } }
          : { grant: { created: true, grant, userErrors: [] } },
      },
    }));
    const srctl = createSrctl({ registry: registry.url, namespace: "/aws" });
    const report = await srctl.run(
      'GRANT WRITER ON NAMESPACE "/aws" STREAMS "widgets_" TO GROUP "devs"; REVOKE WRITER ON NAMESPACE "/aws" STREAMS "widgets_" FROM GROUP "devs";',
    );
    expect(report.exitCode).toBe(ExitCode.OK);
    const [granted, revoked] = registry.requests.filter((r) => !r.query.includes("__schema"));
    const input = {
      namespace: "/aws",
      principal: "group:devs",
      role: "writer",
      scope: "/aws",
      streamPrefix: "widgets_",
    };
    expect(granted?.variables?.input).toEqual(input);
    expect(revoked?.variables?.input).toEqual(input);
    expect(report.results.map((r) => (r.output as { message?: string }).message)).toEqual([
      "writer on /aws streams widgets_* to group:devs: granted",
      "writer on /aws streams widgets_* to group:devs: revoked",
    ]);
  });

  it("lists SHOW GRANTS page by page, with its filter", async () => {
    await using registry = await startFakeRegistry(fields, (request) => ({
      body: {
        data: {
          grants: {
            nodes: [request.variables?.after ? { ...grant, streamPrefix: null, role: "READER" } : grant],
            pageInfo: request.variables?.after
              ? { hasNextPage: false, endCursor: null }
              : { hasNextPage: true, endCursor: "c1" },
          },
        },
      },
    }));
    const report = await createSrctl({ registry: registry.url }).run(
      'SHOW GRANTS ON NAMESPACE "/aws" FOR GROUP "devs";',
    );
    expect(report.exitCode).toBe(ExitCode.OK);
    const [first] = registry.requests.filter((r) => !r.query.includes("__schema"));
    expect(first?.variables?.filter).toEqual({ namespace: "/aws", principal: "group:devs" });
    expect(report.results[0]?.output).toMatchObject({
      rows: [
        { namespace: "/aws", streams: "widgets_*", role: "writer", principal: "group:devs" },
        { namespace: "/aws", streams: "*", role: "reader", principal: "group:devs" },
      ],
    });
  });

  it("exits DENIED when the registry refuses for want of a role", async () => {
    await using registry = await startFakeRegistry(fields, () => ({
      status: 403,
      body: {
        data: null,
        errors: [
          {
            message:
              "granting admin on / to token:x needs the admin role on namespace / or on a namespace above it",
            extensions: { code: "FORBIDDEN", field: ["input", "scope"], role: "admin", namespace: "/" },
          },
        ],
      },
    }));
    const report = await createSrctl({ registry: registry.url }).run('GRANT ADMIN TO TOKEN "x";');
    expect(report.exitCode).toBe(ExitCode.DENIED);
  });
});
