import { describe, expect, it } from "vitest";
import { parseConsistency } from "../src/consistency.ts";
import { createSrctl, ExitCode, UsageError } from "../src/index.ts";
import { describeLag, isBehind, lagWarning, type IndexLag } from "../src/statements/index-lag.ts";
import { startFakeRegistry, type ReceivedRequest } from "./support/fake-registry.ts";
import { runMain } from "./support/run-main.ts";

// What --consistency sends and how an index's lag is reported, without starting registries
// (tree.test.ts runs the same against real ones).

const fields = { Query: ["namespace", "streams", "clusters", "bindings", "stream"], Mutation: [] };
const inSync = (namespace: string): IndexLag => ({
  namespace,
  entriesBehind: 0,
  secondsBehind: 0.2,
  syncedAt: "2026-12-01T10:00:00.000Z",
  lastError: null,
});
const down: IndexLag = {
  namespace: "/aws/us-reg1-xyz",
  entriesBehind: 12,
  secondsBehind: 3.24,
  syncedAt: "2026-12-01T10:00:00.000Z",
  lastError: "the child registry us-reg1-xyz does not answer",
};

/** Answers every list with one page of `nodes` (two pages when `pages` is 2), each with `lag`. */
function lists(lag: IndexLag[], pages = 1) {
  return (request: ReceivedRequest) => {
    const field = ["streams", "clusters", "bindings"].find((f) => request.query.includes(`${f}(`))!;
    const last = pages === 1 || request.variables?.after === "p1";
    const node = {
      streams: { namespace: "/aws/us-reg1-xyz", name: last ? "b" : "a", bindings: [], defaultBinding: null },
      clusters: { namespace: "/aws/us-reg1-xyz", name: "c1", provider: "registry-only", bindings: [] },
      bindings: {
        stream: { namespace: "/aws/us-reg1-xyz", name: "b" },
        cluster: { name: "c1" },
        isDefault: true,
        status: { phase: "ONLINE" },
      },
    }[field];
    return {
      body: {
        data: {
          registryNamespace: { path: "/" },
          [field]: { nodes: [node], pageInfo: { hasNextPage: !last, endCursor: last ? null : "p1" }, lag },
        },
      },
    };
  };
}

const listRequests = (requests: ReceivedRequest[]) => requests.filter((r) => !r.query.includes("__schema"));

describe("--consistency", () => {
  it("takes index or live, in any case, and names the option and the allowed values otherwise", () => {
    expect(parseConsistency("index", "--consistency")).toBe("index");
    expect(parseConsistency("LIVE", "--consistency")).toBe("live");
    expect(() => parseConsistency("eventual", "--consistency")).toThrow(
      new UsageError('--consistency must be index or live, got "eventual"'),
    );
    expect(() => parseConsistency("", "SRCTL_CONSISTENCY")).toThrow(
      /SRCTL_CONSISTENCY must be index or live/,
    );
  });

  it("refuses a bad value as a usage error before sending anything, from the option or SRCTL_CONSISTENCY", async () => {
    await using registry = await startFakeRegistry(fields, lists([]));
    const flag = await runMain([
      "--registry",
      registry.url,
      "--consistency",
      "eventual",
      "-e",
      "SHOW STREAMS;",
    ]);
    expect(flag).toEqual({
      code: ExitCode.BAD_INPUT,
      stdout: "",
      stderr: 'error: --consistency must be index or live, got "eventual"\n',
    });
    const env = await runMain(["--registry", registry.url, "-o", "json", "-e", "SHOW STREAMS;"], {
      env: { SRCTL_CONSISTENCY: "fresh" },
    });
    expect(env.code).toBe(ExitCode.BAD_INPUT);
    expect(JSON.parse(env.stdout)).toEqual({
      ok: false,
      exitCode: ExitCode.BAD_INPUT,
      error: { code: null, message: 'SRCTL_CONSISTENCY must be index or live, got "fresh"' },
    });
    const missing = await runMain(["--registry", registry.url, "-e", "SHOW STREAMS;", "--consistency"]);
    expect(missing.code).toBe(ExitCode.BAD_INPUT);
    expect(missing.stderr).toContain("'--consistency <mode>' argument missing");
    expect(registry.requests).toEqual([]);
  });

  it("passes INDEX by default, or what the option or SRCTL_CONSISTENCY says, to every list", async () => {
    await using registry = await startFakeRegistry(fields, lists([]));
    const statements = 'SHOW STREAMS; SHOW CLUSTERS; DESCRIBE BINDINGS "b";';
    const sent = async (args: string[], env: Record<string, string> = {}) => {
      registry.requests.length = 0;
      const run = await runMain(["--registry", registry.url, ...args, "-e", statements], { env });
      expect(run.code).toBe(ExitCode.OK);
      return listRequests(registry.requests).map((r) => r.variables?.consistency);
    };
    expect(await sent([])).toEqual(["INDEX", "INDEX", "INDEX"]);
    expect(await sent(["--consistency", "live"])).toEqual(["LIVE", "LIVE", "LIVE"]);
    expect(await sent([], { SRCTL_CONSISTENCY: "live" })).toEqual(["LIVE", "LIVE", "LIVE"]);
    // The option wins over the environment.
    expect(await sent(["--consistency", "index"], { SRCTL_CONSISTENCY: "live" })).toEqual([
      "INDEX",
      "INDEX",
      "INDEX",
    ]);
    const query = listRequests(registry.requests)[0]!.query;
    expect(query).toContain("$consistency: Consistency");
    expect(query).toContain("consistency: $consistency");
  });

  it("passes it to the stream look-up of a DESCRIBE BINDINGS that found no bindings, and says the index may be behind", async () => {
    await using registry = await startFakeRegistry(fields, (request) => ({
      body: {
        data: {
          registryNamespace: { path: "/" },
          [request.query.includes("streams(") ? "streams" : "bindings"]: {
            nodes: [],
            pageInfo: { hasNextPage: false, endCursor: null },
            lag: [inSync("/aws")],
          },
        },
      },
    }));
    const report = await createSrctl({ registry: registry.url }).run('DESCRIBE BINDINGS "new_s";');
    expect(report.exitCode).toBe(ExitCode.NOT_FOUND);
    expect(report.results[0]?.error?.message).toBe(
      `stream "new_s" does not exist (as far as the registry's index knows; --consistency live asks every registry)`,
    );
    expect(
      listRequests(registry.requests).map((r) => [r.query.includes("streams("), r.variables?.consistency]),
    ).toEqual([
      [false, "INDEX"],
      [true, "INDEX"],
    ]);
    const live = await createSrctl({ registry: registry.url, consistency: "live" }).run(
      'DESCRIBE BINDINGS "new_s";',
    );
    expect(listRequests(registry.requests).at(-1)?.variables?.consistency).toBe("LIVE");
    expect(live.results[0]?.error?.message).toBe('stream "new_s" does not exist');
  });
});

describe("the index's lag", () => {
  it("is worth a warning when entries are behind, a read failed, or it is more than 5 s behind", () => {
    expect(isBehind(inSync("/aws"))).toBe(false);
    expect(isBehind({ ...inSync("/aws"), secondsBehind: 5 })).toBe(false);
    expect(isBehind({ ...inSync("/aws"), secondsBehind: 5.1 })).toBe(true);
    expect(isBehind({ ...inSync("/aws"), entriesBehind: 1 })).toBe(true);
    expect(isBehind({ ...inSync("/aws"), lastError: "connect ECONNREFUSED" })).toBe(true);
  });

  it("words the warning with the entries, the seconds and the last error", () => {
    expect(lagWarning(down)).toEqual({
      code: "INDEX_LAG",
      namespace: "/aws/us-reg1-xyz",
      message:
        "the registry's index is 12 entries / 3.2 s behind this namespace (last error: the child registry us-reg1-xyz does not answer); use --consistency live for a live answer",
      lag: {
        entriesBehind: 12,
        secondsBehind: 3.24,
        syncedAt: "2026-12-01T10:00:00.000Z",
        lastError: "the child registry us-reg1-xyz does not answer",
      },
    });
    expect(lagWarning({ ...inSync("/aws"), secondsBehind: 7 }).message).toBe(
      "the registry's index is 7.0 s behind this namespace; use --consistency live for a live answer",
    );
    expect(describeLag({ ...inSync("/aws"), entriesBehind: 1, secondsBehind: 312.4 })).toBe(
      "1 entry / 312 s",
    );
    expect(describeLag(inSync("/aws"))).toBe("0.2 s");
  });

  it("prints one warning per namespace behind, however many pages carried it, and the answer is not partial", async () => {
    await using registry = await startFakeRegistry(fields, lists([inSync("/aws"), down], 2));
    const run = await runMain(["--registry", registry.url, "-e", "SHOW STREAMS;"]);
    expect(run.code).toBe(ExitCode.OK);
    expect(run.stdout).toBe(
      `| namespace        | stream | bindings | default cluster |
|------------------+--------+----------+-----------------|
| /aws/us-reg1-xyz | a      |        0 |                 |
| /aws/us-reg1-xyz | b      |        0 |                 |
`,
    );
    expect(run.stderr).toBe(
      "warning: INDEX_LAG (namespace /aws/us-reg1-xyz): the registry's index is 12 entries / 3.2 s behind this namespace (last error: the child registry us-reg1-xyz does not answer); use --consistency live for a live answer\n",
    );
    expect(listRequests(registry.requests)).toHaveLength(2);
  });

  it("keeps stdout one JSON document a statement, the lag warnings in its warnings", async () => {
    await using registry = await startFakeRegistry(fields, lists([down]));
    const run = await runMain([
      "--registry",
      registry.url,
      "-o",
      "json",
      "-e",
      'SHOW CLUSTERS; DESCRIBE BINDINGS "b";',
    ]);
    expect(run.code).toBe(ExitCode.OK);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({
        ok: true,
        exitCode: ExitCode.OK,
        warnings: [{ code: "INDEX_LAG", namespace: down.namespace, lag: { entriesBehind: 12 } }],
      });
    }
    expect(run.stderr).toBe("");
  });

  it("comes after the namespaces left out, which alone make the answer partial", async () => {
    await using registry = await startFakeRegistry(fields, (request) => {
      const { body } = lists([down])(request);
      return {
        body: {
          ...body,
          errors: [
            {
              message: "child registry did not answer",
              extensions: { code: "CHILD_UNAVAILABLE", namespace: "/gcp" },
            },
          ],
        },
      };
    });
    const report = await createSrctl({ registry: registry.url }).run("SHOW STREAMS;");
    expect(report.exitCode).toBe(ExitCode.PARTIAL);
    expect(report.results[0]?.warnings.map((w) => [w.code, w.namespace])).toEqual([
      ["CHILD_UNAVAILABLE", "/gcp"],
      ["INDEX_LAG", "/aws/us-reg1-xyz"],
    ]);
  });
});

describe("SHOW NAMESPACES with the index's lag", () => {
  const child = (name: string) => ({
    path: `/${name}`,
    name,
    url: `http://${name}/graphql`,
    registryId: `id-${name}`,
    version: "0.1.0",
    health: { status: "UP", checkedAt: "2026-12-01T10:00:00.000Z", latencyMs: 3, lastError: null },
    registeredAt: "2026-12-01T09:00:00.000Z",
  });

  it("adds an index lag column for each child, from Query.indexLag", async () => {
    await using registry = await startFakeRegistry(
      { Query: ["namespace", "indexLag"], Mutation: [] },
      (request) => ({
        body: {
          data: request.query.includes("indexLag")
            ? {
                indexLag: [
                  inSync("/aws"),
                  { ...down, namespace: "/aws/us-reg1-xyz" },
                  { ...down, namespace: "/mpaas" },
                ],
              }
            : {
                namespace: {
                  path: "/",
                  parent: null,
                  children: [child("aws"), child("mpaas"), child("gcp")],
                  descendants: [child("aws"), child("mpaas"), child("gcp")],
                },
              },
        },
      }),
    );
    const run = await runMain(["--registry", registry.url, "-o", "json", "-e", "SHOW NAMESPACES;"]);
    expect(run.code).toBe(ExitCode.OK);
    const { result } = JSON.parse(run.stdout) as {
      result: { columns: string[]; rows: Record<string, unknown>[] };
    };
    expect(result.columns).toEqual(["namespace", "url", "health", "checked", "indexLag"]);
    expect(result.rows.map((row) => [row.namespace, row.indexLag])).toEqual([
      ["/", undefined],
      ["/aws", "0.2 s"],
      ["/mpaas", "12 entries / 3.2 s (last error: the child registry us-reg1-xyz does not answer)"],
      ["/gcp", "not indexed yet"],
    ]);
    expect(result.rows[1]).toMatchObject({ lag: inSync("/aws") });
    const text = await runMain(["--registry", registry.url, "-e", "SHOW NAMESPACES;"]);
    expect(text.stdout).toMatch(/^\| namespace \| url +\| health +\| checked +\| index lag +\|$/m);
    expect(text.stdout).toMatch(/^\| \/aws +\| http:\/\/aws\/graphql +\| UP +\| \S+ +\| 0\.2 s +\|$/m);
  });

  it("leaves the column out at a registry without children, or without the index", async () => {
    const answer = (children: unknown[]) => () => ({
      body: { data: { namespace: { path: "/", parent: null, children, descendants: children } } },
    });
    await using leaf = await startFakeRegistry(
      { Query: ["namespace", "indexLag"], Mutation: [] },
      answer([]),
    );
    const atLeaf = await runMain(["--registry", leaf.url, "-e", "SHOW NAMESPACES;"]);
    expect(atLeaf.stdout).not.toContain("index lag");
    expect(leaf.requests.some((r) => r.query.includes("indexLag {"))).toBe(false);
    await using older = await startFakeRegistry(
      { Query: ["namespace"], Mutation: [] },
      answer([child("aws")]),
    );
    const atOlder = await runMain(["--registry", older.url, "-e", "SHOW NAMESPACES;"]);
    expect(atOlder.code).toBe(ExitCode.OK);
    expect(atOlder.stdout).not.toContain("index lag");
  });
});
