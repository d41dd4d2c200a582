import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, onTestFinished } from "vitest";
import { callRegistry, RemoteRegistryError } from "../src/remote-registry.ts";

/** A real HTTP server answering every request with `handler`; its GraphQL URL. */
async function serve(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
}

const json =
  (body: unknown, status = 200): RequestListener =>
  (_, response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };

async function failure(url: string, timeoutMs = 2_000): Promise<RemoteRegistryError> {
  const error = await callRegistry(url, "{ registry { id } }", {}, { timeoutMs }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RemoteRegistryError);
  return error as RemoteRegistryError;
}

/** The URL of a port that was just listened on and closed: nothing answers there. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/graphql`;
}

describe("callRegistry", () => {
  it("posts the operation and returns its data, sending the caller's headers", async () => {
    let seen: { body: unknown; actor: string | undefined } | undefined;
    const url = await serve((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        seen = { body: JSON.parse(body), actor: request.headers["x-actor"] as string | undefined };
        json({ data: { registry: { id: "r1" } } })(request, response);
      });
    });
    const data = await callRegistry(
      url,
      "query ($a: Int) { registry { id } }",
      { a: 1 },
      {
        timeoutMs: 2_000,
        headers: { "x-actor": "alice" },
      },
    );
    expect(data).toEqual({ registry: { id: "r1" } });
    expect(seen).toEqual({
      body: { query: "query ($a: Int) { registry { id } }", variables: { a: 1 } },
      actor: "alice",
    });
  });

  it("tells nothing answering from something that is not a registry from a registry's errors", async () => {
    const nobody = await failure(await closedPort());
    expect(nobody).toMatchObject({
      failure: "unreachable",
      message: expect.stringContaining("does not answer: ECONNREFUSED"),
    });

    const html = await serve((_, response) => {
      response.writeHead(404, { "content-type": "text/html" });
      response.end("<html>Not here</html>");
    });
    expect(await failure(html)).toMatchObject({
      failure: "not-a-registry",
      message: expect.stringContaining("answered HTTP 404 with something that is not JSON"),
    });
    expect(await failure(await serve(json({ hello: "world" })))).toMatchObject({
      failure: "not-a-registry",
      message: expect.stringContaining("JSON that is not a GraphQL response"),
    });
    expect(
      await failure(await serve(json({ errors: [{ message: 'Cannot query field "registry"' }] }, 400))),
    ).toMatchObject({
      failure: "errors",
      message: expect.stringContaining('answered with errors: Cannot query field "registry"'),
    });
  });

  it("gives up at its deadline on a server that never answers, and on an answer too large", async () => {
    const silent = await serve(() => {});
    const started = Date.now();
    expect(await failure(silent, 300)).toMatchObject({
      failure: "unreachable",
      message: expect.stringContaining("did not answer within 300 ms"),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const huge = await serve((_, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`{"data":{"x":"${"a".repeat(5 * 1024 * 1024)}"}}`);
    });
    expect(await failure(huge)).toMatchObject({
      failure: "not-a-registry",
      message: expect.stringContaining("exceeds"),
    });
  });

  it("keeps a connection between calls, and closes it before the server would (no ECONNRESET race)", async () => {
    const connections: number[] = [];
    const server = createServer(json({ data: { registry: { id: "r1" } } }));
    server.on("connection", () => connections.push(Date.now()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    onTestFinished(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
    const call = () => callRegistry(url, "{ registry { id } }", {}, { timeoutMs: 2_000 });
    await call();
    await call();
    expect(connections).toHaveLength(1);
    // Node's server closes an idle connection after 5 s; the client must not reuse it that late.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    await call();
    expect(connections).toHaveLength(2);
  });
});
