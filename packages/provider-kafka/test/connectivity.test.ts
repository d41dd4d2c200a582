import { createServer, type Server, type Socket } from "node:net";
import type { ProviderError } from "@stream-registry/provider-api";
import { usePrivateKafkaClusters } from "@stream-registry/testkit/vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaProvider, type KafkaFactory } from "../src/index.ts";
import {
  providerFailure,
  bindingRequest,
  clusterTarget,
  context,
  countingFactory,
  countingProvider,
  eventually,
  ownAdmin,
  topicName,
} from "./support/kafka-targets.ts";

const kafka = usePrivateKafkaClusters(1);

/** Accepts connections and never answers: a hung broker. */
let blackHole: Server;
const sockets = new Set<Socket>();
let blackHoleAddress: string;

beforeAll(async () => {
  blackHole = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => blackHole.listen(0, "127.0.0.1", resolve));
  blackHoleAddress = `127.0.0.1:${(blackHole.address() as { port: number }).port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => blackHole.close(resolve));
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function timed<T>(promise: Promise<T>): Promise<{ error: ProviderError; ms: number }> {
  const started = Date.now();
  const error = await providerFailure(promise);
  return { error, ms: Date.now() - started };
}

describe("an unreachable cluster", () => {
  it("fails retriably within the deadline, naming the servers and the error, then backs off", async () => {
    const { provider } = countingProvider({ reconnectBackoff: { baseMs: 10_000, maxMs: 10_000 } });
    const port = await closedPort();
    const target = clusterTarget(`127.0.0.1:${port}`, "down", { "socket.connection.setup.timeout.ms": 1000 });

    const probe = await timed(provider.infrastructure.probeCluster(target, context()));
    expect(probe.error.retriable).toBe(true);
    expect(probe.error.message).toContain(`probe on Kafka cluster "/down" (127.0.0.1:${port}) failed`);
    expect(probe.error.message).toContain("ECONNREFUSED");
    expect(probe.ms).toBeLessThan(8_000);

    // Within the backoff, calls fail at once instead of opening connections again.
    const fast = await timed(provider.infrastructure.observeStreamBinding("s", target, context()));
    expect(fast.ms).toBeLessThan(100);
    expect(fast.error.retriable).toBe(true);
    expect(fast.error.message).toBe(
      `observe topic "s" on Kafka cluster "/down" (127.0.0.1:${port}) failed: cannot reach the cluster: ` +
        `Connection error: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
    const health = provider.connections.health.details(`/\u0000down`);
    expect(health).toMatchObject({
      consecutiveFailures: 1,
      lastError: expect.stringContaining("ECONNREFUSED"),
    });

    // Binding validation skips its cluster checks while the cluster is down (create enforces them).
    await provider.infrastructure.validateStream(
      "s",
      { "apache.kafka": { partitions: 2 } },
      { ...context(), cluster: target },
    );

    const declare = await timed(provider.infrastructure.validateCluster("down", target.config, context()));
    expect(declare.error.retriable).toBe(true);
    expect(declare.error.message).toContain("ECONNREFUSED");
    await provider.close();
  });

  it("cuts a call to a broker that never answers at default.api.timeout.ms and drops its client", async () => {
    const { provider } = countingProvider();
    const target = clusterTarget(blackHoleAddress, "hung", { "default.api.timeout.ms": 1500 });
    const { error, ms } = await timed(
      provider.infrastructure.createStreamBinding(bindingRequest(topicName("hung"), target, {}), context()),
    );
    expect(error.retriable).toBe(true);
    expect(error.message).toContain(
      `on Kafka cluster "/hung" (${blackHoleAddress}) did not finish within 1500 ms`,
    );
    expect(ms).toBeGreaterThanOrEqual(1400);
    expect(ms).toBeLessThan(3000);
    expect(provider.connections.pool.openCount).toBe(0);
    await provider.close();
  });

  it("keeps the shared client, health and backoff when validation's own shorter deadline passes", async () => {
    const { provider, counts } = countingProvider();
    const target = clusterTarget(blackHoleAddress, "slow", { "default.api.timeout.ms": 20_000 });
    const started = Date.now();
    // Its 3 s cluster-check deadline passes first: skipped like an outage, the stream is accepted.
    await provider.infrastructure.validateStream(
      "s",
      { "apache.kafka": { partitions: 2 } },
      { ...context(), cluster: target },
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
    expect(Date.now() - started).toBeLessThan(6000);
    // Only the caller stopped waiting: the pooled client (still connecting) stays for the others.
    expect(provider.connections.pool.openCount).toBe(1);
    expect(counts.clients).toBe(1);
    expect(provider.connections.health.waitUntil(`/\u0000slow`)).toBeUndefined();
    expect(provider.connections.health.details(`/\u0000slow`)).toEqual({ consecutiveFailures: 0 });
    await provider.close();
  });

  it("reports a bug during validation's cluster checks instead of taking it for an outage", async () => {
    const { factory } = countingFactory();
    const buggy: KafkaFactory = (config) => {
      const kafka = factory(config);
      const admin = kafka.admin.bind(kafka);
      kafka.admin = (adminConfig) =>
        Object.assign(admin(adminConfig), {
          describeCluster: () => Promise.reject(new TypeError("cannot read properties of undefined")),
        });
      return kafka;
    };
    const provider = createKafkaProvider({ logLevel: "nothing", kafkaFactory: buggy });
    const target = clusterTarget(kafka.at(0).bootstrapServers, "buggy");
    const { error } = await timed(
      provider.infrastructure.validateStream(
        "s",
        { "apache.kafka": { partitions: 2 } },
        { ...context(), cluster: target },
      ),
    );
    expect(error.message).toContain("failed: unexpected TypeError: cannot read properties of undefined");
    await provider.close();
  });

  it("honours the abort signal during a call and before it", async () => {
    const { provider } = countingProvider();
    const hung = clusterTarget(blackHoleAddress, "hung", { "default.api.timeout.ms": 30_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("registry shutting down")), 200);
    const { error, ms } = await timed(
      provider.infrastructure.probeCluster(hung, { signal: controller.signal }),
    );
    expect(error.message).toContain("was aborted: registry shutting down");
    expect(error.retriable).toBe(true);
    expect(ms).toBeLessThan(1000);

    const name = topicName("aborted");
    const live = clusterTarget(kafka.at(0).bootstrapServers);
    await timed(
      provider.infrastructure.createStreamBinding(bindingRequest(name, live, {}), {
        signal: AbortSignal.abort(),
      }),
    );
    expect(await provider.infrastructure.observeStreamBinding(name, live, context())).toBeNull();
    await provider.close();
  });
});

describe("a broker restart", () => {
  it("fails retriably while the broker is down and reconnects with a new client once it is back", async () => {
    const { provider } = countingProvider({ reconnectBackoff: { baseMs: 200, maxMs: 1000 } });
    const pool = provider.connections.pool;
    const infra = provider.infrastructure;
    const target = clusterTarget(kafka.at(0).bootstrapServers, "restart", {
      "default.api.timeout.ms": 3000,
      "socket.connection.setup.timeout.ms": 1000,
      "request.timeout.ms": 1000,
    });
    const name = topicName("restart");
    await infra.createStreamBinding(
      bindingRequest(name, target, { "apache.kafka": { partitions: 2 } }),
      context(),
    );
    expect(pool.createdCount).toBe(1);

    await kafka.at(0).stop();
    const down = await timed(infra.observeStreamBinding(name, target, context()));
    expect(down.error.retriable).toBe(true);
    expect(down.ms).toBeLessThan(4000);

    const restarted = Date.now();
    await kafka.at(0).start();
    const observed = await eventually(() => infra.observeStreamBinding(name, target, context()), 30_000);
    expect(observed?.details?.partitions).toBe(2);
    expect(pool.createdCount).toBeGreaterThanOrEqual(2);
    const probe = await infra.probeCluster(target, context());
    expect(probe.details).toMatchObject({ consecutiveFailures: 0, lastError: expect.any(String) });
    expect(Date.now() - restarted).toBeLessThan(40_000);

    await using admin = await ownAdmin(kafka.at(0).bootstrapServers);
    expect(await admin.listTopics()).toContain(name);
    await provider.close();
  });
});
