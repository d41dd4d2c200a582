import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/index.ts";
import { startFakeRegistry } from "./support/fake-registry.ts";
import { runMain } from "./support/run-main.ts";

// A registry process's test provider has no data in flight to poll from here (its flows are set in
// the registry's own process), so a registry that has polled is answered by a small local server.

const binding = (cluster: string, isDefault: boolean, flow: unknown) => ({
  stream: { namespace: "/", name: "widgets_v0" },
  cluster: { name: cluster },
  isDefault,
  status: { phase: "ONLINE" },
  flow,
});
const polled = {
  observedAt: "2026-12-03T17:30:00.000Z",
  records: 1000,
  producedPerSecond: 12.345,
  error: null,
  groups: [
    {
      group: "connect-widgets_v0-sink",
      state: "Stable",
      protocol: "CLASSIC",
      members: 1,
      lag: 0,
      health: "OK",
    },
    { group: "billing", state: "Unknown", protocol: "CONSUMER", members: null, lag: 250, health: "STALL" },
  ],
};

describe("DESCRIBE BINDINGS with data in flight", () => {
  it("prints the seed's table, then records and produce rate per polled binding, then each group's lag and health", async () => {
    await using registry = await startFakeRegistry(
      { Query: ["bindings"], Mutation: [], Binding: ["stream", "cluster", "flow"] },
      () => ({
        body: {
          data: {
            bindings: {
              nodes: [binding("cluster001", true, polled), binding("cluster002", false, null)],
              pageInfo: { hasNextPage: false, endCursor: null },
              lag: [],
            },
          },
        },
      }),
    );
    const run = await runMain(["--registry", registry.url, "-e", 'DESCRIBE BINDINGS "widgets_v0";']);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(ExitCode.OK);
    expect(run.stdout).toBe(
      `| stream     | cluster    | default |
|------------+------------+---------|
| widgets_v0 | cluster001 | yes     |
| widgets_v0 | cluster002 | no      |

| stream     | cluster    | records | produced/s | as of                    | error |
|------------+------------+---------+------------+--------------------------+-------|
| widgets_v0 | cluster001 |    1000 |       12.3 | 2026-12-03T17:30:00.000Z |       |

| stream     | cluster    | consumer group          | protocol | state   | members | lag | health |
|------------+------------+-------------------------+----------+---------+---------+-----+--------|
| widgets_v0 | cluster001 | connect-widgets_v0-sink | CLASSIC  | Stable  |       1 |   0 | OK     |
| widgets_v0 | cluster001 | billing                 | CONSUMER | Unknown |         | 250 | STALL  |
`,
    );
    expect(registry.requests.at(-1)?.query).toContain("flow { observedAt records");
  });

  it("asks a registry older than data in flight without it, and prints the seed's table alone", async () => {
    await using registry = await startFakeRegistry(
      { Query: ["bindings"], Mutation: [], Binding: ["stream", "cluster"] },
      () => ({
        body: {
          data: {
            bindings: {
              nodes: [binding("cluster001", true, undefined)],
              pageInfo: { hasNextPage: false, endCursor: null },
              lag: [],
            },
          },
        },
      }),
    );
    const run = await runMain(["--registry", registry.url, "-e", 'DESCRIBE BINDINGS "widgets_v0";']);
    expect(run.stdout).toBe(
      "| stream     | cluster    | default |\n|------------+------------+---------|\n| widgets_v0 | cluster001 | yes     |\n",
    );
    expect(registry.requests.at(-1)?.query).not.toContain("flow");
  });
});
