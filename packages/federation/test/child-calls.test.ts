import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it, onTestFinished } from "vitest";
import { ChildCalls } from "../src/child-calls.ts";
import { RemoteRegistryError } from "../src/remote-registry.ts";

/**
 * A real HTTP server that hangs up on every request until `answering` is set, then answers as a
 * GraphQL server; counts the requests that reached it.
 */
async function flakyChild(): Promise<{ url: string; requests: () => number; answer: () => void }> {
  let requests = 0;
  let answering = false;
  const server = createServer((_, response) => {
    requests++;
    if (!answering) return void response.socket?.destroy();
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ data: { ok: true } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  return { url, requests: () => requests, answer: () => void (answering = true) };
}

it("stops asking a child that did not answer five times in a row, and only that child", async () => {
  const [dead, alive] = [await flakyChild(), await flakyChild()];
  alive.answer();
  const calls = new ChildCalls();
  const call = (url: string) =>
    calls.post(url, "{ ok }", {}, { timeoutMs: 2_000 }).catch((error: unknown) => error);
  for (let i = 0; i < 5; i++) {
    expect(await call(dead.url)).toMatchObject({ failure: "unreachable" });
  }
  expect(dead.requests()).toBe(5);
  // Open: refused at once, without a request, saying why.
  const refused = await call(dead.url);
  expect(refused).toBeInstanceOf(RemoteRegistryError);
  expect((refused as Error).message).toMatch(
    /did not answer 5 times in a row \(last: .*does not answer.*\); not asked again for 10 s/,
  );
  expect(dead.requests()).toBe(5);
  // Another child is asked as before.
  expect(await call(alive.url)).toEqual({ data: { ok: true }, errors: [], text: '{"data":{"ok":true}}' });
});

it("counts an answer with errors as an answer, not a failure", async () => {
  const calls = new ChildCalls();
  const server = createServer((_, response) => {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ errors: [{ message: "refused" }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
  // Seven refusals in a row: each one asked, none turned into "not asked again".
  for (let i = 0; i < 7; i++) {
    expect(await calls.post(url, "{ ok }", {}, { timeoutMs: 2_000 })).toMatchObject({
      errors: [{ message: "refused" }],
    });
  }
});

it("abandons a call whose caller went away, closing its connection, and never counts it as a failure", async () => {
  const child = await flakyChild(); // never answers: it hangs up only when told to answer
  let closed = 0;
  const hanging = createServer((request) => request.socket.on("close", () => closed++));
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => {
    hanging.closeAllConnections();
    return new Promise<void>((resolve) => hanging.close(() => resolve()));
  });
  const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/graphql`;
  const calls = new ChildCalls();
  // Seven callers in a row go away while the child says nothing: each call ends at once, as
  // cancelled, its connection closed, and the child is asked every time (no open circuit).
  for (let i = 0; i < 7; i++) {
    const gone = new AbortController();
    const call = calls.post(url, "{ ok }", {}, { timeoutMs: 30_000, signal: gone.signal });
    await new Promise((resolve) => setTimeout(resolve, 20));
    gone.abort(new Error("the caller went away"));
    await expect(call).rejects.toMatchObject({ failure: "cancelled" });
  }
  await expect.poll(() => closed, { timeout: 2_000 }).toBe(7);
  // A caller already gone sends nothing.
  const before = child.requests();
  await expect(
    calls.post(child.url, "{ ok }", {}, { timeoutMs: 2_000, signal: AbortSignal.abort() }),
  ).rejects.toMatchObject({ failure: "cancelled" });
  expect(child.requests()).toBe(before);
});
