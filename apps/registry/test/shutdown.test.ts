import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  TEST_AUTHORIZATION,
  postGraphQL,
  CREATE_BINDING,
  CREATE_STREAM,
  DECLARE_CLUSTER,
  DESCRIBE_BINDINGS,
  spawnRegistry,
  type RegistryProcess,
  eventually,
  testProviderModule,
} from "@stream-registry/testkit";

// `npm start` in the repository root, in the environment users have (spawnRegistry leaves out
// Vitest's NODE_ENV=test, under which Apollo Server installs no signal handlers of its own).
describe("a registry started with npm start", () => {
  const processes: RegistryProcess[] = [];
  let dataDir: string;

  afterEach(async (context) => {
    for (const p of processes.splice(0)) {
      if (context.task.result?.state === "fail") console.error(p.logs.slice(-60).join("\n")); // eslint-disable-line no-console
      p.killGroup("SIGKILL");
      await p.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string> = {}, launcher: "npm start" | "node" = "npm start") {
    const p = await spawnRegistry({ REGISTRY_DATA_DIR: dataDir, ...env }, launcher);
    processes.push(p);
    return p;
  }

  it.each([
    ["SIGTERM sent to npm, as a supervisor does", "SIGTERM", (p: RegistryProcess) => p.kill("SIGTERM")],
    [
      "SIGINT sent to the process group, as Ctrl-C in a terminal does",
      "SIGINT",
      (p: RegistryProcess) => p.killGroup("SIGINT"),
    ],
  ] as const)(
    "stops cleanly on %s",
    async (_, signal, send) => {
      dataDir = await mkdtemp(path.join(tmpdir(), "sr-shutdown-"));
      const registry = await start();
      const port = Number(new URL(registry.url).port);
      expect(existsSync(path.join(dataDir, "registry.lock"))).toBe(true);

      send(registry);
      expect(await registry.exited).toBe(0);
      expect(registry.entries()).toContainEqual(expect.objectContaining({ msg: "shutting down", signal }));
      expect(registry.entries()).toContainEqual(expect.objectContaining({ msg: "registry stopped" }));
      expect(registry.entries()).not.toContainEqual(
        expect.objectContaining({ msg: "second signal: exiting without finishing shutdown" }),
      );
      expect(existsSync(path.join(dataDir, "registry.lock"))).toBe(false);
      expect(isRunning(registry.registryPid)).toBe(false);
      expect(await refusesConnections(port)).toBe(true);
    },
    90_000,
  );

  it("answers a request in flight and gives back job leases when stopped under load", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "sr-shutdown-load-"));
    // A lease far longer than the test waits: the job can only run again soon if it was given back.
    const env = {
      REGISTRY_PROVIDERS: testProviderModule,
      RECONCILER_LEASE_MS: "120000",
      SHUTDOWN_TIMEOUT_MS: "1500",
    };
    const first = await start(env);
    await postGraphQL(first.url, DECLARE_CLUSTER, { input: { name: "slow", provider: "test" } });
    await postGraphQL(first.url, CREATE_STREAM, {
      input: { name: "busy_s", config: { "test.provider": { delayMs: 5000 } } },
    });
    await postGraphQL(first.url, CREATE_BINDING, { input: { stream: "busy_s", cluster: "slow" } });
    await eventually(
      async () => first.entries().find((e) => e.msg === "reconcile started"),
      10_000,
      "a reconcile to start",
    );
    // A client still sending its request when the signal comes.
    const inFlight = await slowRequest(first.url, CREATE_STREAM, { input: { name: "sent_during_shutdown" } });

    first.kill("SIGTERM");
    await eventually(
      async () => first.entries().find((e) => e.msg === "registry stopping"),
      10_000,
      "shutdown to begin",
    );
    inFlight.finish();
    expect(await inFlight.response).toMatchObject({
      status: 200,
      body: { data: { createStream: { stream: { name: "sent_during_shutdown" }, userErrors: [] } } },
    });
    expect(await first.exited).toBe(0);
    expect(first.entries()).toContainEqual(
      expect.objectContaining({ msg: "reconcile", outcome: "released" }),
    );
    expect(first.entries()).toContainEqual(expect.objectContaining({ msg: "registry stopped" }));

    const second = await start(env, "node");
    const { data } = await postGraphQL<{ stream: { name: string } | null }>(
      second.url,
      'query { stream(name: "sent_during_shutdown") { name } }',
    );
    expect(data?.stream).toEqual({ name: "sent_during_shutdown" });
    await eventually(
      async () => {
        const { data } = await postGraphQL<{ bindings: { nodes: { status: { phase: string } }[] } }>(
          second.url,
          DESCRIBE_BINDINGS,
          { stream: "busy_s" },
        );
        return data?.bindings.nodes[0]?.status.phase === "ONLINE" ? true : undefined;
      },
      45_000,
      "the binding ONLINE in the next process, long before the lease would have expired",
    );
  }, 120_000);

  it("exits at a second signal while shutdown still waits, and the next start takes the lock over", async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "sr-shutdown-forced-"));
    const env = { REGISTRY_PROVIDERS: testProviderModule, SHUTDOWN_TIMEOUT_MS: "60000" };
    const first = await start(env);
    await postGraphQL(first.url, DECLARE_CLUSTER, { input: { name: "stuck", provider: "test" } });
    await postGraphQL(first.url, CREATE_STREAM, {
      input: { name: "stuck_s", config: { "test.provider": { delayMs: 60000 } } },
    });
    await postGraphQL(first.url, CREATE_BINDING, { input: { stream: "stuck_s", cluster: "stuck" } });
    await eventually(
      async () => first.entries().find((e) => e.msg === "reconcile started"),
      10_000,
      "a reconcile to start",
    );
    first.kill("SIGTERM");
    await eventually(
      async () => first.entries().find((e) => e.msg === "registry stopping"),
      10_000,
      "shutdown to begin",
    );
    // Later than a repeated delivery of the same keypress (main.ts ignores those).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    first.kill("SIGTERM");
    expect(await first.exited).toBe(143);
    expect(first.entries()).toContainEqual(
      expect.objectContaining({ msg: "second signal: exiting without finishing shutdown" }),
    );
    expect(first.entries()).not.toContainEqual(expect.objectContaining({ msg: "registry stopped" }));
    expect(existsSync(path.join(dataDir, "registry.lock"))).toBe(true);

    const next = await start({}, "node");
    expect(next.entries()).toContainEqual(expect.objectContaining({ msg: "registry started" }));
  }, 120_000);
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED"));
  });
}

/**
 * Sends a GraphQL request's headers and half its body; `finish` sends the rest. Resolves once the
 * server has the request (its 100 Continue), so the request is in flight from then on.
 */
async function slowRequest(url: string, query: string, variables: Record<string, unknown>) {
  const body = Buffer.from(JSON.stringify({ query, variables }));
  const half = Math.floor(body.length / 2);
  const req = request(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "content-length": body.length,
      expect: "100-continue",
      authorization: TEST_AUTHORIZATION,
    },
  });
  const response = new Promise<{ status: number | undefined; body: unknown }>((resolve, reject) => {
    req.once("error", reject);
    req.once("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.once("error", reject);
      res.once("end", () =>
        resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString()) }),
      );
    });
  });
  req.flushHeaders();
  await new Promise<void>((resolve) => req.once("continue", resolve));
  req.write(body.subarray(0, half));
  return { response, finish: () => req.end(body.subarray(half)) };
}
