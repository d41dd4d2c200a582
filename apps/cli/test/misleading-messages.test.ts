import { describe, expect, it } from "vitest";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { ExitCode } from "../src/index.ts";
import { runMain } from "./support/run-main.ts";

// What a new user met (issue 20, item 4): messages that named the wrong thing, or no fix.
describe("srctl messages that point at the fix, against a registry process", () => {
  const registry = useRegistryProcess("pglite");
  const origin = () => new URL(registry().url).origin;

  it("says a --registry URL without /graphql is not a registry's GraphQL endpoint, and suggests /graphql", async () => {
    const graphql = `${origin()}/graphql`;
    const root = await runMain(["--registry", origin(), "-e", "SHOW NAMESPACE;"]);
    expect(root.code).toBe(ExitCode.BAD_INPUT);
    expect(root.stderr).not.toContain("CSRF");
    expect(root.stderr).toContain(
      `error: ${origin()} is not a registry's GraphQL endpoint (it redirects to ${graphql}, and the request does not survive the redirect); a registry serves GraphQL at /graphql: try --registry ${graphql}`,
    );
    const rest = await runMain(["--registry", `${origin()}/schema-registry`, "-e", "SHOW NAMESPACE;"]);
    expect(rest.code).toBe(ExitCode.BAD_INPUT);
    expect(rest.stderr).toContain(
      `error: ${origin()}/schema-registry is not a registry's GraphQL endpoint (HTTP 405 without "data" or "errors"); a registry serves GraphQL at /graphql: try --registry ${graphql}`,
    );
  });

  it("says CASCADE, srctl's word, when DELETE STREAM finds bindings", async () => {
    const run = await runMain([
      "--registry",
      registry().url,
      "-e",
      'DECLARE CLUSTER "cascade_c"; CREATE STREAM "cascade_s"; CREATE BINDING "cascade_s" TO CLUSTER "cascade_c"; DELETE STREAM "cascade_s";',
    ]);
    expect(run.code).toBe(ExitCode.CONFLICT);
    expect(run.stderr).toContain(
      'error: IN_USE at input.name: stream "cascade_s" is bound to cluster(s) "cascade_c"; delete the bindings first or add CASCADE: DELETE STREAM "cascade_s" CASCADE\n',
    );
    expect(run.stderr).not.toContain("cascade: true");
  });

  it("says names are double-quoted when a statement uses single quotes, and runs nothing", async () => {
    const run = await runMain(["--registry", registry().url, "-e", "CREATE STREAM 'quoted_s';"]);
    expect(run.code).toBe(ExitCode.BAD_INPUT);
    expect(run.stderr).toBe(
      `-e:1:15: unexpected character "'" (names and strings are written in double quotes, "...", not '...')\n`,
    );
  });
});
