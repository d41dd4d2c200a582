/**
 * Measuring for bench:federation: one HTTP client for every target (registries and the raw floor
 * alike, so the client's own cost is the same in each row), sequential latency samples, a
 * concurrent throughput run, the raw node:http floor, and CPU time of processes read from /proc.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { TEST_AUTHORIZATION } from "@stream-registry/testkit";

/** What a request answered: its body as sent and the time it took (ms, until the body was read). */
export interface Answer {
  text: string;
  ms: number;
  /** Whether it was sent again after the connection was reset before any answer. */
  retried: boolean;
}

/** Connections reset before an answer, and sent again (see `post`). */
export const resets = { count: 0 };

/** An answer with GraphQL errors or an HTTP error status; `text` is its body. */
export class AnswerError extends Error {
  constructor(
    message: string,
    readonly text: string,
  ) {
    super(message);
  }
}

/**
 * Posts one GraphQL request body and reads the answer; throws an AnswerError on an HTTP error or
 * on GraphQL errors (a partial answer is not a measurement of the whole tree). A request whose connection is
 * reset before any answer is sent again (twice at most) and counted in `resets`: on a loaded
 * machine a keep-alive connection that the server closes as idle can be picked for a request at
 * that very moment, which says nothing about the registry.
 */
export async function post(url: string, body: string): Promise<Answer> {
  for (let attempt = 0; ; attempt++) {
    const started = performance.now();
    let response: Response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: TEST_AUTHORIZATION },
        body,
      });
    } catch (error) {
      if (attempt >= 2 || !connectionReset(error)) throw error;
      resets.count++;
      continue;
    }
    const text = await response.text();
    const ms = performance.now() - started;
    if (!response.ok || text.includes('"errors":[')) {
      throw new AnswerError(`${url} answered HTTP ${response.status}: ${text.slice(0, 2_000)}`, text);
    }
    return { text, ms, retried: attempt > 0 };
  }
}

function connectionReset(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return ["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"].includes(cause?.code ?? "");
}

/** Posts an operation and returns its data; throws on errors. */
export async function call<T>(url: string, query: string, variables?: Record<string, unknown>): Promise<T> {
  const { text } = await post(url, JSON.stringify({ query, variables }));
  return (JSON.parse(text) as { data: T }).data;
}

export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `work(i)` for i in [0, count) on `concurrency` workers. */
export async function forEachConcurrently(
  count: number,
  concurrency: number,
  work: (i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, count)) }, async () => {
      for (let i = next++; i < count; i = next++) await work(i);
    }),
  );
}

/** A registry a request passes through, and the operation name it logs the request under there. */
export interface Hop {
  path: string;
  operation: string;
}

/** One thing measured: a request body (the i-th; look-ups vary the key) sent to `url`. */
export interface Variant {
  url: string;
  body: (i: number) => string;
  /** Where its request goes, for the server-side times read from the registries' request logs. */
  hops: Hop[];
}

/** Requests of a measurement that got no answer or one with errors; their times are left out. */
export class Failures {
  count = 0;
  first: string | undefined;

  add(error: unknown): void {
    this.count++;
    this.first ??= (error instanceof Error ? error.message : String(error)).slice(0, 500);
  }

  /** Sends a request, and counts it here instead of throwing if it fails; its time, or undefined. */
  async time(url: string, body: string): Promise<number | undefined> {
    try {
      return (await post(url, body)).ms;
    } catch (error) {
      this.add(error);
      return undefined;
    }
  }
}

export interface Measured {
  /** Sorted latencies of the sequential samples (ms). */
  sequential: number[];
  /** Requests per second with `concurrency` clients. */
  rps: number;
  /** p50 latency under that concurrency (ms). */
  concurrentP50: number;
  /** Bytes of the first answer. */
  bytes: number;
  /** p50 of the time each hop's registry logged for the request (ms, rounded by the log), in hop order. */
  serverP50: number[];
  /** CPU time (ms) each watched process spent per request above its idle rate, in the concurrent run. */
  cpuPerRequest: Map<string, number>;
  /** Requests (sequential and concurrent) that failed, left out of the times. */
  failures: Failures;
}

export interface MeasureOptions {
  requests: number;
  concurrency: number;
  warmup: number;
  watch: ProcessWatch;
  /** CPU ms each watched process spends per ms of wall time when the tree is idle. */
  idle: Map<string, number>;
  /** The log lines of the registry at a path so far (they only grow). */
  logs: (path: string) => readonly string[];
}

/**
 * Measures several requests alike: `warmup` of each, then `requests` sequential samples taken in
 * turn (variant 1, 2, ..., 1, 2, ...) so that every variant sees the same moments of a noisy
 * machine, then, variant by variant, `requests` more from `concurrency` clients at once. A request
 * that fails (a partial answer, say) is counted in `failures` and left out of the times.
 */
export async function measureInterleaved(variants: Variant[], options: MeasureOptions): Promise<Measured[]> {
  const bytes = variants.map(() => 0);
  const failures = variants.map(() => new Failures());
  for (let i = 0; i < options.warmup; i++) {
    for (const [v, variant] of variants.entries()) {
      try {
        bytes[v] = Buffer.byteLength((await post(variant.url, variant.body(i))).text);
      } catch (error) {
        failures[v]!.add(error);
      }
    }
  }
  const marks = logMarks(variants, options);
  const sequential: number[][] = variants.map(() => []);
  for (let i = 0; i < options.requests; i++) {
    for (const [v, variant] of variants.entries()) {
      const ms = await failures[v]!.time(variant.url, variant.body(i));
      if (ms !== undefined) sequential[v]!.push(ms);
    }
  }
  const serverP50 = variants.map((variant) => serverTimes(variant.hops, marks, options));
  const results: Measured[] = [];
  for (const [v, variant] of variants.entries()) {
    const concurrent: number[] = [];
    const before = await options.watch.sample();
    const started = performance.now();
    await forEachConcurrently(options.requests, options.concurrency, async (i) => {
      const ms = await failures[v]!.time(variant.url, variant.body(options.requests + i));
      if (ms !== undefined) concurrent.push(ms);
    });
    const elapsed = performance.now() - started;
    const after = await options.watch.sample();
    concurrent.sort((a, b) => a - b);
    results.push({
      sequential: sequential[v]!.sort((a, b) => a - b),
      rps: options.requests / (elapsed / 1000),
      concurrentP50: percentile(concurrent, 50),
      bytes: bytes[v]!,
      serverP50: serverP50[v]!,
      cpuPerRequest: cpuAboveIdle(before, after, elapsed, options.requests, options.idle),
      failures: failures[v]!,
    });
  }
  return results;
}

/** Where each registry's log is now, for the paths that `variants` pass through. */
export function logMarks(variants: Variant[], options: Pick<MeasureOptions, "logs">): Map<string, number> {
  const paths = new Set(variants.flatMap((variant) => variant.hops.map((hop) => hop.path)));
  return new Map([...paths].map((path) => [path, options.logs(path).length]));
}

/** p50 of the durations each hop's registry logged, since `marks`, for its operation. */
export function serverTimes(
  hops: Hop[],
  marks: Map<string, number>,
  options: Pick<MeasureOptions, "logs">,
): number[] {
  return hops.map(({ path, operation }) => {
    const durations: number[] = [];
    for (const line of options.logs(path).slice(marks.get(path) ?? 0)) {
      if (!line.includes('"msg":"request"') || !line.includes(`"operationName":"${operation}"`)) continue;
      try {
        durations.push((JSON.parse(line) as { durationMs: number }).durationMs);
      } catch {
        // not JSON
      }
    }
    return percentile(
      durations.sort((a, b) => a - b),
      50,
    );
  });
}

/** CPU ms per request of each process between two samples, less what it spends when idle. */
export function cpuAboveIdle(
  before: Map<string, number>,
  after: Map<string, number>,
  elapsedMs: number,
  requests: number,
  idle: Map<string, number>,
): Map<string, number> {
  return new Map(
    [...after].map(([name, ms]) => [
      name,
      Math.max(0, ms - (before.get(name) ?? ms) - (idle.get(name) ?? 0) * elapsedMs) / requests,
    ]),
  );
}

/** CPU ms each watched process spends per ms of wall time over `ms` of doing nothing. */
export async function idleRates(watch: ProcessWatch, ms: number): Promise<Map<string, number>> {
  const before = await watch.sample();
  const started = performance.now();
  await sleep(ms);
  const after = await watch.sample();
  const elapsed = performance.now() - started;
  return new Map([...after].map(([name, cpu]) => [name, (cpu - (before.get(name) ?? cpu)) / elapsed]));
}

/**
 * The floor: a raw node:http server on localhost that reads each request and answers with bytes
 * chosen from its body (captured from a registry beforehand), doing no GraphQL at all.
 */
export async function rawFloor(
  answer: (requestBody: string) => Buffer,
): Promise<{ url: string; close(): Promise<void> }> {
  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  const server = createServer((request, response) => {
    readBody(request).then(
      (body) => {
        const bytes = answer(body);
        response.writeHead(200, {
          "content-type": "application/graphql-response+json; charset=utf-8",
          "content-length": bytes.length,
        });
        response.end(bytes);
      },
      () => response.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** CPU time (user + system, ms) of named processes, read from /proc (0 where unreadable). */
export class ProcessWatch {
  private readonly pids = new Map<string, number>();

  add(name: string, pid: number | undefined): void {
    if (pid) this.pids.set(name, pid);
  }

  async sample(): Promise<Map<string, number>> {
    const ticksPerMs = 100 / 1000; // USER_HZ is 100 on Linux
    const entries = await Promise.all(
      [...this.pids].map(async ([name, pid]) => {
        const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
        // Fields after the command name (which may hold spaces) start after the last ")".
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0); // utime, stime
        return [name, ticks / ticksPerMs] as const;
      }),
    );
    return new Map(entries);
  }

  /** Peak resident set (MiB) of a watched process. */
  async peakRssMiB(name: string): Promise<number> {
    const status = await readFile(`/proc/${this.pids.get(name)}/status`, "utf8").catch(() => "");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
  }
}
