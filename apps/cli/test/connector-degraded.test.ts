import { describe, expect, it } from "vitest";
import { ExitCode } from "../src/index.ts";
import { startFakeRegistry } from "./support/fake-registry.ts";
import { runMain } from "./support/run-main.ts";

// A registry process's test provider cannot be told from here to fail a task, so a sink whose
// task failed is answered by a small local server (see support/fake-registry.ts), as the registry
// answers it (schema.graphql's StreamSink).

const error = "org.apache.kafka.connect.errors.ConnectException: the table widgets is missing";
const degraded = {
  namespace: "/aws",
  name: "widgets_sink",
  cluster: { name: "cluster001" },
  type: "jdbc",
  desiredState: "RUNNING",
  state: "DEGRADED",
  status: { phase: "ONLINE", generation: 1, observedGeneration: 1, message: "jdbc connector DEGRADED" },
  observed: {
    state: "DEGRADED",
    tasks: [
      { id: 0, state: "RUNNING", workerId: "10.0.0.7:8083", error: null },
      { id: 1, state: "FAILED", workerId: "10.0.0.8:8083", error },
    ],
    error,
    autoRestarts: 3,
    lastRestartAt: "2026-12-03T17:00:00.000Z",
    message: "jdbc connector DEGRADED",
    observedAt: "2026-12-03T17:01:00.000Z",
  },
  flow: {
    observedAt: "2026-12-03T17:01:05.000Z",
    processed: 700,
    processing: false,
    lag: 300,
    lastError: null,
  },
};
const fields = { Query: ["sink"], Mutation: ["restartStreamSink"], StreamSink: ["name", "flow"] };
/** Observed after the restart (a later observedAt): the connector itself failed this time. */
const failedAgain = {
  ...degraded,
  state: "FAILED",
  observed: { ...degraded.observed, state: "FAILED", observedAt: "2026-12-03T17:02:00.000Z" },
};

describe("a stream sink with a failed task", () => {
  it("DESCRIBE shows DEGRADED, the error, the automatic restarts, what is flowing, and each task with its worker", async () => {
    await using registry = await startFakeRegistry(fields, () => ({ body: { data: { sink: degraded } } }));
    const run = await runMain([
      "--registry",
      registry.url,
      "--namespace",
      "/aws",
      "-e",
      'DESCRIBE STREAM SINK "widgets_sink";',
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(ExitCode.OK);
    expect(run.stdout).toBe(
      `|--------------+------------+------+----------|
| STREAM SINK  | CLUSTER    | TYPE | STATUS   |
|--------------+------------+------+----------|
| widgets_sink | cluster001 | jdbc | DEGRADED |
|--------------+------------+------+----------|

|-------------------+--------------------------------------------------------------------------------|
| DETAIL            | VALUE                                                                          |
|-------------------+--------------------------------------------------------------------------------|
| desired state     | RUNNING                                                                        |
| connector         | DEGRADED (observed 2026-12-03T17:01:00.000Z)                                   |
| message           | jdbc connector DEGRADED                                                        |
| error             | ${error} |
| auto restarts     | 3 (last 2026-12-03T17:00:00.000Z)                                              |
| records processed | 700                                                                            |
| processing        | no                                                                             |
| lag               | 300                                                                            |
| flow as of        | 2026-12-03T17:01:05.000Z                                                       |
|-------------------+--------------------------------------------------------------------------------|

|------+---------+---------------+--------------------------------------------------------------------------------|
| TASK | STATE   | WORKER        | ERROR                                                                          |
|------+---------+---------------+--------------------------------------------------------------------------------|
|    0 | RUNNING | 10.0.0.7:8083 |                                                                                |
|    1 | FAILED  | 10.0.0.8:8083 | ${error} |
|------+---------+---------------+--------------------------------------------------------------------------------|
`,
    );
    expect(registry.requests.at(-1)?.variables).toEqual({ name: "widgets_sink", namespace: "/aws" });
  });

  it("RESTART ... ONLY FAILED sends onlyFailed in the namespace's input; --wait ends FAILED on a task that fails again", async () => {
    await using registry = await startFakeRegistry(fields, (request) => ({
      body: {
        data: request.query.includes("restartStreamSink")
          ? { restartStreamSink: { sink: degraded, userErrors: [] } }
          : { sink: failedAgain },
      },
    }));
    const run = await runMain([
      "--registry",
      registry.url,
      "--namespace",
      "/aws",
      "--wait",
      "-e",
      'RESTART STREAM SINK "widgets_sink" ONLY FAILED; DESCRIBE STREAM SINK "widgets_sink";',
    ]);
    const restart = registry.requests.find((r) => r.query.includes("restartStreamSink"));
    expect(restart?.variables).toEqual({
      input: { namespace: "/aws", name: "widgets_sink", onlyFailed: true },
    });
    expect(run.stderr).toBe(
      `-e:1: RESTART STREAM SINK "widgets_sink" ONLY FAILED;\n  error: stream sink widgets_sink: FAILED (${error})\n`,
    );
    expect(run.code).toBe(ExitCode.WAIT_FAILED);
  });

  it("RESTART --wait waits past the failure it was asked to clear, until an observation after it", async () => {
    const running = {
      ...degraded,
      state: "ONLINE",
      observed: {
        ...degraded.observed,
        state: "RUNNING",
        error: null,
        tasks: degraded.observed.tasks.map((t) => ({ ...t, state: "RUNNING", error: null })),
        observedAt: "2026-12-03T17:02:00.000Z",
      },
    };
    let looks = 0;
    await using registry = await startFakeRegistry(fields, (request) => ({
      body: {
        data: request.query.includes("restartStreamSink")
          ? { restartStreamSink: { sink: degraded, userErrors: [] } }
          : // The first look still has the observation the restart answered with.
            { sink: ++looks === 1 ? degraded : running },
      },
    }));
    const run = await runMain([
      "--registry",
      registry.url,
      "--wait",
      "-e",
      'RESTART STREAM SINK "widgets_sink";',
    ]);
    expect(run.stdout).toBe("stream sink widgets_sink: ONLINE\n");
    expect(run.stderr).toMatch(/^waiting for stream sink widgets_sink: DEGRADED \(restart requested\)/);
    expect(run.code).toBe(ExitCode.OK);
    expect(looks).toBe(2);
  });
});
