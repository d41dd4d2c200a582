import type { Server, ServerResponse } from "node:http";

/**
 * How the HTTP server stops (registry.stop): it stops listening, closes idle kept-alive
 * connections at once, and answers every request it already has with `Connection: close`, so a
 * kept-alive client's next request goes to a new connection (refused) instead of being taken, and
 * the drain ends when the last answer in flight is sent. Without it, the server kept taking the
 * requests that clients kept sending on their connections until the shutdown deadline, then cut
 * them mid-request: writes committed without an answer (issue 19, finding 8).
 */
export function drainOnStop(server: Server): () => Promise<void> {
  const answering = new Set<ServerResponse>();
  let draining = false;
  const closeAfterAnswer = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader("connection", "close");
  };
  // Before the registry's own listener: a request that arrives while draining is told at once.
  server.prependListener("request", (_req, res: ServerResponse) => {
    if (draining) closeAfterAnswer(res);
    answering.add(res);
    res.once("close", () => {
      answering.delete(res);
      // An answer whose headers were out before the drain began leaves its connection idle.
      if (draining) setImmediate(() => server.closeIdleConnections());
    });
  });
  return async () => {
    draining = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    answering.forEach(closeAfterAnswer);
    server.closeIdleConnections();
    await closed;
  };
}
