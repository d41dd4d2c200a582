import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A redirecting server and the trap it points to, both on loopback. */
export interface RedirectTrap extends AsyncDisposable {
  /** The redirecting server's origin, e.g. "http://127.0.0.1:40123": every request gets `status`. */
  url: string;
  /** Where the redirects point (another port: another address for an allow-list). */
  trapUrl: string;
  /** Requests the trap received: a client that follows redirects sends them there. */
  trapped(): number;
  /** Requests the redirecting server received. */
  asked(): number;
}

async function listen(server: Server, host = "127.0.0.1"): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/**
 * A server that answers every request with a redirect (`status`, default 307, which keeps the
 * method and body) to the same path on a second server, which counts what arrives and answers 200
 * with JSON. For tests of clients that must not follow redirects: `trapped()` stays 0. The trap
 * listens on `trapHost` (another loopback address, e.g. 127.0.0.2, is another host for an allow-list).
 */
export async function startRedirectTrap(status = 307, trapHost = "127.0.0.1"): Promise<RedirectTrap> {
  let trapped = 0;
  let asked = 0;
  const trap = createServer((request, response) => {
    trapped += 1;
    request.resume();
    response.writeHead(200, { "content-type": "application/json" }).end('{"data":{}}');
  });
  const trapUrl = await listen(trap, trapHost);
  const redirector = createServer((request, response) => {
    asked += 1;
    request.resume();
    response.writeHead(status, { location: `${trapUrl}${request.url ?? "/"}` }).end();
  });
  const url = await listen(redirector);
  return {
    url,
    trapUrl,
    trapped: () => trapped,
    asked: () => asked,
    [Symbol.asyncDispose]: async () => {
      await Promise.all([close(trap), close(redirector)]);
    },
  };
}
