import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isProviderError, type ClusterTarget, type ProviderError } from "@stream-registry/provider-api";
import { startRedirectTrap } from "@stream-registry/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKafkaProvider } from "../src/index.ts";
import { context } from "./support/kafka-targets.ts";

const SECRET = "pw-not-to-be-echoed";

/** A stand-in worker that answers every call with `status` and `body` (or by its path), counting the calls. */
function fakeWorker(status: number, body: unknown | ((path: string) => unknown)) {
  return scriptedWorker((_method, path) => [status, typeof body === "function" ? body(path) : body]);
}

/** A stand-in worker whose every answer `answer` gives, from the call's method and path. */
async function scriptedWorker(answer: (method: string, path: string) => [status: number, body: unknown]) {
  let calls = 0;
  const server: Server = createServer((request, response) => {
    calls += 1;
    const [status, body] = answer(request.method ?? "GET", request.url ?? "");
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const clusterAt = (url: string): ClusterTarget => ({
  namespace: "/",
  name: "c1",
  config: { "apache.kafka": { "bootstrap.servers": "127.0.0.1:9092" }, "kafka.connect": { url } },
});

const sink = (url: string) => ({
  name: "widgets",
  type: "file",
  cluster: clusterAt(url),
  configMaps: { "file-sink": { file: "/tmp/widgets", "connection.password": SECRET } },
  state: "RUNNING" as const,
});

async function failure(call: Promise<unknown>): Promise<ProviderError> {
  const error = await call.then(
    () => new Error("expected a failure"),
    (e: unknown) => e,
  );
  if (!isProviderError(error)) throw error;
  return error;
}

/** Issue 22, Must 1 and 6: how the Connect client treats what a worker (or something else) answers. */
describe("the Kafka Connect client", () => {
  const provider = createKafkaProvider({ logLevel: "nothing" });
  beforeAll(() => provider.registryWillStart({ connect: { restricted: false, allows: async () => true } }));
  afterAll(() => provider.close());

  it("refuses a redirect without following it", async () => {
    await using redirects = await startRedirectTrap(307);
    const error = await failure(provider.sinks.types(clusterAt(redirects.url), context()));
    expect(error.retriable).toBe(false);
    expect(error.message).toContain("redirects are not followed");
    expect(error.issues[0]?.field).toEqual(["kafka.connect", "url"]);
    expect(redirects.trapped()).toBe(0);
  });

  it("takes a 409 (a rebalance) and a 5xx as retriable, a 400 as a refusal, never echoing a secret", async () => {
    for (const [status, retriable] of [
      [409, true],
      [500, true],
      [400, false],
    ] as const) {
      await using worker = await fakeWorker(status, {
        error_code: status,
        message: `Connector configuration is invalid: Invalid value ${SECRET} for configuration x`,
      });
      const error = await failure(provider.sinks.update(sink(worker.url), context()));
      expect(error.retriable, `${status}`).toBe(retriable);
      expect(error.message).toContain(`answered ${status}`);
      expect(error.message).not.toContain(SECRET);
    }
  });

  it("takes a 404 for the plugin list (a worker still starting) as retriable, not as no types", async () => {
    await using worker = await fakeWorker(404, { error_code: 404, message: "HTTP 404 Not Found" });
    const error = await failure(provider.sources.create(sink(worker.url), context()));
    expect(error.retriable).toBe(true);
    expect(error.message).toContain("GET /connector-plugins answered 404");
  });

  it("refuses, as a conflict, a connector made by hand between its look and its create", async () => {
    let made = false;
    await using worker = await scriptedWorker((method, path) => {
      if (path.startsWith("/connector-plugins"))
        return [200, [{ class: "org.apache.kafka.connect.file.FileStreamSinkConnector", type: "sink" }]];
      if (method === "POST") {
        made = true;
        return [409, { error_code: 409, message: "Connector widgets-sink already exists" }];
      }
      // Absent at the first look; then the hand-made one, without the registry's owner.
      if (path === "/connectors/widgets-sink/config") return made ? [200, { topics: "widgets" }] : [404, {}];
      return [404, { error_code: 404, message: "not found" }];
    });
    const error = await failure(provider.sinks.create(sink(worker.url), context()));
    expect(error.retriable).toBe(false);
    expect(error.message).toContain("that this registry did not create");
  });

  it("asks the allow-list once for a create, however often it looks at the worker", async () => {
    let looks = 0;
    await using worker = await scriptedWorker((method, path) => {
      if (path.startsWith("/connector-plugins"))
        return [200, [{ class: "org.apache.kafka.connect.file.FileStreamSinkConnector", type: "sink" }]];
      if (method === "POST") return [201, {}];
      if (path === "/connectors/widgets-sink/status") {
        looks += 1;
        // Unassigned at the first two looks, as a worker placing the connector answers.
        const state = looks > 2 ? "RUNNING" : "UNASSIGNED";
        return [200, { connector: { state }, tasks: [{ id: 0, state }] }];
      }
      return [404, { error_code: 404, message: "not found" }];
    });
    let asked = 0;
    const guarded = createKafkaProvider({ logLevel: "nothing" });
    guarded.registryWillStart({
      connect: { restricted: true, allows: () => Promise.resolve(++asked > 0) },
    });
    try {
      const observed = await guarded.sinks.create(sink(worker.url), context());
      expect(observed?.details.state).toBe("RUNNING");
      expect(looks).toBe(3);
      expect(worker.calls()).toBeGreaterThanOrEqual(6);
      expect(asked).toBe(1);
    } finally {
      await guarded.close();
    }
  });

  it("calls nothing with an aborted signal, or an unreachable worker, as retriable", async () => {
    await using worker = await fakeWorker(200, []);
    const aborted = new AbortController();
    aborted.abort(new Error("gone"));
    await expect(provider.sources.types(clusterAt(worker.url), { signal: aborted.signal })).rejects.toThrow(
      "gone",
    );
    await expect(provider.sources.observe(sink(worker.url), { signal: aborted.signal })).rejects.toThrow(
      "gone",
    );
    expect(worker.calls()).toBe(0);
    const down = await failure(provider.sources.types(clusterAt("http://127.0.0.1:1"), context()));
    expect(down.retriable).toBe(true);
    expect(down.message).toContain("unreachable");
  });

  it("shows a failed task's trace without the secrets of the connector's config", async () => {
    await using worker = await fakeWorker(200, (path: string) =>
      path.endsWith("/config")
        ? { "connection.password": SECRET, "stream.registry.owner": "/:c1" }
        : {
            connector: { state: "RUNNING", worker_id: "w1" },
            tasks: [
              {
                id: 0,
                state: "FAILED",
                worker_id: "w1",
                trace: `SQLException: login ${SECRET} refused\n\tat x`,
              },
            ],
          },
    );
    const observed = await provider.sinks.observe(sink(worker.url), context());
    expect(observed?.details).toEqual({
      state: "DEGRADED",
      tasks: [{ id: 0, state: "FAILED", workerId: "w1", error: "SQLException: login ******** refused" }],
      error: "SQLException: login ******** refused",
    });
  });
});
