import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/** Where the OS picks ports from for outgoing connections and for listen(0). */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/);
    return [Number(low), Number(high)];
  } catch {
    return [32768, 60999]; // Linux's default; elsewhere only a guess
  }
}

/**
 * A port on 127.0.0.1 that nothing listens on right now, for a broker that binds it a moment later.
 * Taken below the OS's ephemeral range where there is room: a port the OS picked (listen(0)) is one
 * it may hand to any outgoing connection before the broker binds it, and brokers then failed to
 * start with "Address already in use" while other tests connected to things.
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  const first = 10_000;
  if (low - first >= 1_000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = first + Math.floor(Math.random() * (low - first));
      if (await canListen(port)) return port;
    }
  }
  return listenAnywhere();
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function listenAnywhere(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("No free port was assigned"))));
    });
  });
}
