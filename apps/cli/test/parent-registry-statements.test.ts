import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/index.ts";
import { startFakeRegistry, type ReceivedRequest } from "./support/fake-registry.ts";
import { runMain } from "./support/run-main.ts";
import { mayHoldSecret } from "../src/secrets.ts";

// The registry's parent mutations are being built; these cases check what srctl sends and prints
// against a fake registry that answers as the schema says (schema.graphql).

const fields = { Query: ["namespace"], Mutation: ["declareParentRegistry", "dropParentRegistry"] };
const TOKEN = "enroll-7f3a";
const DECLARE = `DECLARE PARENT REGISTRY "https://root/graphql" WITH TOKEN "${TOKEN}";`;

function answering(data: Record<string, unknown>) {
  return (_request: ReceivedRequest) => ({ body: { data } });
}

const online = {
  declareParentRegistry: {
    parent: { url: "https://root/graphql", namespace: "/aws", status: { phase: "ONLINE", message: null } },
    namespace: { path: "/aws/us-reg1-xyz" },
    userErrors: [],
  },
};

describe("DECLARE PARENT REGISTRY", () => {
  it("sends the url and token, and prints the namespace the registry owns now", async () => {
    await using registry = await startFakeRegistry(fields, answering(online));
    const run = await runMain(["--registry", registry.url, "-e", DECLARE]);
    expect(run).toMatchObject({ code: ExitCode.OK, stderr: "" });
    expect(run.stdout).toBe(
      "parent registry https://root/graphql: registered (namespace /aws/us-reg1-xyz)\n",
    );
    const sent = registry.requests.at(-1)!;
    expect(sent.query).toContain("declareParentRegistry(input: $input)");
    expect(sent.variables).toEqual({ input: { url: "https://root/graphql", token: TOKEN } });
  });

  it("leaves the token out of --output json", async () => {
    await using registry = await startFakeRegistry(fields, answering(online));
    const run = await runMain(["--registry", registry.url, "--output", "json", "-e", DECLARE]);
    expect(JSON.parse(run.stdout)).toMatchObject({
      statement: "DECLARE PARENT REGISTRY",
      ok: true,
      result: {
        type: "mutation",
        object: {
          kind: "parentRegistry",
          url: "https://root/graphql",
          phase: "ONLINE",
          namespace: "/aws/us-reg1-xyz",
        },
      },
    });
    expect(run.stdout).not.toContain(TOKEN);
  });

  it("shows neither the statement's token nor one a refusal quotes back", async () => {
    await using registry = await startFakeRegistry(
      fields,
      answering({
        declareParentRegistry: {
          parent: null,
          namespace: null,
          userErrors: [
            {
              code: "UNAUTHENTICATED",
              field: ["input", "token"],
              message: `token "${TOKEN}" is not this registry's`,
            },
          ],
        },
      }),
    );
    for (const format of ["table", "json"]) {
      const run = await runMain(["--registry", registry.url, "--output", format, "apply", "-f", "-"], {
        input: DECLARE,
      });
      expect(run.code, format).not.toBe(ExitCode.OK);
      expect(run.stdout + run.stderr, format).not.toContain(TOKEN);
      expect(run.stderr, format).toContain('token "<redacted>" is not this registry\'s');
    }
    const located = await runMain(["--registry", registry.url, "apply", "-f", "-"], { input: DECLARE });
    expect(located.stderr).toContain(
      'DECLARE PARENT REGISTRY "https://root/graphql" WITH TOKEN "<redacted>";',
    );
  });

  it("says the token is required, without a request", async () => {
    await using registry = await startFakeRegistry(fields, answering(online));
    const run = await runMain([
      "--registry",
      registry.url,
      "-e",
      'DECLARE PARENT REGISTRY "https://root/graphql";',
    ]);
    expect(run.code).toBe(ExitCode.BAD_INPUT);
    expect(run.stderr).toContain('DECLARE PARENT REGISTRY "<url>" WITH TOKEN "<token>"');
    expect(registry.requests).toEqual([]);
  });
});

describe("DROP PARENT REGISTRY", () => {
  it("prints the parent it left and the namespace the registry owns now", async () => {
    await using registry = await startFakeRegistry(
      fields,
      answering({
        dropParentRegistry: {
          parent: { url: "https://root/graphql", namespace: "/aws", status: { phase: "DELETING" } },
          namespace: { path: "/us-reg1-xyz" },
          userErrors: [],
        },
      }),
    );
    const run = await runMain(["--registry", registry.url, "-e", "DROP PARENT REGISTRY;"]);
    expect(run.stdout).toBe("parent registry https://root/graphql: dropped (namespace /us-reg1-xyz)\n");
    expect(registry.requests.at(-1)!.query).toContain("dropParentRegistry {");
  });

  it("says when there was no parent", async () => {
    await using registry = await startFakeRegistry(
      fields,
      answering({
        dropParentRegistry: { parent: null, namespace: { path: "/us-reg1-xyz" }, userErrors: [] },
      }),
    );
    const run = await runMain(["--registry", registry.url, "-e", "DROP PARENT REGISTRY;"]);
    expect(run.stdout).toBe("no parent registry to drop (namespace /us-reg1-xyz)\n");
  });
});

describe("SHOW NAMESPACES", () => {
  const children = [
    child("us-reg1-xyz", {
      status: "UP",
      checkedAt: "2026-12-01T10:00:00.000Z",
      latencyMs: 4,
      lastError: null,
    }),
    child("us-aus1-dc01", {
      status: "DOWN",
      checkedAt: "2026-12-01T10:00:01.000Z",
      latencyMs: null,
      lastError: "connect ECONNREFUSED",
    }),
  ];
  const tree = {
    namespace: {
      path: "/aws",
      parent: { url: "https://root/graphql", namespace: "/", status: { phase: "ONLINE", message: null } },
      children,
      descendants: children,
    },
  };

  it("prints the parent above a table of this registry and its children", async () => {
    await using registry = await startFakeRegistry(fields, answering(tree));
    const run = await runMain(["--registry", registry.url, "-e", "SHOW NAMESPACES;"]);
    expect(run.code).toBe(ExitCode.OK);
    expect(run.stdout).toBe(
      [
        "parent: / at https://root/graphql (ONLINE)",
        "",
        `| namespace         | url${" ".repeat(registry.url.length - 3)} | health                     | checked                  |`,
        `|-------------------+${"-".repeat(registry.url.length + 2)}+----------------------------+--------------------------|`,
        `| /aws              | ${registry.url} | (this registry)            |                          |`,
        `| /aws/us-reg1-xyz  | ${"http://us-reg1-xyz/graphql".padEnd(registry.url.length)} | UP                         | 2026-12-01T10:00:00.000Z |`,
        `| /aws/us-aus1-dc01 | ${"http://us-aus1-dc01/graphql".padEnd(registry.url.length)} | DOWN: connect ECONNREFUSED | 2026-12-01T10:00:01.000Z |`,
        "",
      ].join("\n"),
    );
  });

  it("says when the registry has no parent, and gives the parent's facts in --output json", async () => {
    const root = { namespace: { path: "/", parent: null, children: [], descendants: [] } };
    await using registry = await startFakeRegistry(fields, answering(root));
    const run = await runMain(["--registry", registry.url, "-e", "SHOW NAMESPACES;"]);
    expect(run.stdout.split("\n")[0]).toBe("parent: none (this registry is the root of its tree)");

    await using child = await startFakeRegistry(fields, answering(tree));
    const json = await runMain(["--registry", child.url, "--output", "json", "-e", "SHOW NAMESPACES;"]);
    expect(JSON.parse(json.stdout).result).toMatchObject({
      type: "table",
      parent: { url: "https://root/graphql", namespace: "/", phase: "ONLINE", message: null },
      columns: ["namespace", "url", "health", "checked"],
      rows: [
        { namespace: "/aws", url: child.url },
        { namespace: "/aws/us-reg1-xyz", health: "UP", registryId: "id-us-reg1-xyz", latencyMs: 4 },
        { namespace: "/aws/us-aus1-dc01", health: "DOWN: connect ECONNREFUSED" },
      ],
    });
  });
});

function child(name: string, health: Record<string, unknown>) {
  return {
    path: `/aws/${name}`,
    name,
    url: `http://${name}/graphql`,
    registryId: `id-${name}`,
    version: "0.1.0",
    health,
    registeredAt: "2026-12-01T09:00:00.000Z",
  };
}

describe("the REPL's history", () => {
  it("keeps out every line of a statement with a token, a token on a line of its own included", () => {
    expect(mayHoldSecret('DECLARE PARENT REGISTRY "u" WITH TOKEN "t";')).toBe(true);
    expect(mayHoldSecret('DECLARE PARENT REGISTRY "u" with token\n"t";')).toBe(true);
    expect(mayHoldSecret("SHOW NAMESPACES;")).toBe(false);
  });
});
