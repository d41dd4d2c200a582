import { expect } from "vitest";
import {
  createAgain,
  dropUnderneath,
  postGraphQL,
  type RegistryNode,
  type TestDatabase,
} from "@stream-registry/testkit";
import { Q } from "../test/support/security-corpus.ts";
import { codesOf, type Tally } from "./tree-stress-tally.ts";
import type { TreeWorld } from "./tree-stress-world.ts";

const WRITERS = 20;
const STREAMS = "{ streams(first: 1) { totalCount } }";

/** /gcp's database as the testkit's helpers take it (they only read its URL). */
const databaseOf = (node: RegistryNode): TestDatabase => {
  const drop = async () => {};
  return { kind: "postgres", url: node.databaseUrl, drop, [Symbol.asyncDispose]: drop };
};

/**
 * Finding 9: /gcp's database is dropped under it and created again, empty. A valid token is
 * answered DATABASE_UNAVAILABLE (503) while it is gone and while migrations rebuild it, never
 * UNAUTHENTICATED, until /gcp answers it again.
 */
export async function databaseProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "database dropped and re-created (finding 9)";
  const database = databaseOf(t.gcp);
  await dropUnderneath(database);
  await tally.probe(c, "a valid token, the database gone: 503 DATABASE_UNAVAILABLE, no detail", async () => {
    const answer = await t.gcp.request(STREAMS);
    expect({ status: answer.status, codes: codesOf(answer) }).toEqual({
      status: 503,
      codes: ["DATABASE_UNAVAILABLE"],
    });
    expect(JSON.stringify(answer)).not.toContain(new URL(t.gcp.databaseUrl!).pathname.slice(1));
  });
  await createAgain(database);
  const statuses: number[] = [];
  await tally.probe(c, "a valid token, the database re-created: 503 until answered, never 401", async () => {
    for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
      const { status } = await t.gcp.request(STREAMS);
      statuses.push(status);
      if (status !== 503) break;
    }
    expect(statuses.filter((status) => status !== 503)).toEqual([200]);
  });
}

/**
 * Finding 8: /gcp gets SIGTERM while 20 writers create streams on kept-alive connections. It takes
 * no new request, answers every one in flight and exits well within its deadline (10 s); every
 * write it committed was answered, none it left unanswered was committed.
 */
export async function shutdownProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "SIGTERM under keep-alive writers (finding 8)";
  const { gcp } = t;
  const answered = new Set<string>();
  const unanswered = new Set<string>();
  const refusals: unknown[] = [];
  let stopping = false;
  const writer = async (w: number) => {
    for (let i = 0; ; i++) {
      const name = `w${w}_${i}`;
      // fetch keeps its connections alive (undici's pool): each writer's requests reuse one.
      const answer = await postGraphQL<{ createStream?: { userErrors?: unknown[] } }>(
        gcp.url,
        Q.createStream,
        {
          input: { name },
        },
      ).catch(() => undefined);
      if (!answer) return unanswered.add(name);
      const payload = answer.data?.createStream;
      if (answer.status === 200 && payload?.userErrors?.length === 0) answered.add(name);
      else refusals.push(answer);
      // Stopped once writes flow (or are refused): a writer ends with the request that goes unanswered.
      if (!stopping && (answered.size >= 2 * WRITERS || refusals.length >= WRITERS)) {
        stopping = true;
        stopped = stop();
      }
    }
  };
  let stopped: Promise<number> | undefined;
  const stop = async () => {
    const started = performance.now();
    await gcp.stop();
    return performance.now() - started;
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  const ms = await stopped;
  const logs = gcp.logs();
  t.earlierLogs.set("/gcp (before SIGTERM)", logs);
  await tally.probe(c, "exits within half its 10 s deadline, cutting no request", () => {
    expect(ms).toBeLessThan(5_000);
    expect(logs.join("\n")).not.toContain("requests still running at shutdown");
    expect(logs.join("\n")).toContain("registry stopped");
  });
  await tally.probe(c, "answers every write it takes, or refuses none", () => expect(refusals).toEqual([]));
  await gcp.start();
  await tally.probe(c, "every answered write is committed, no unanswered one", async () => {
    expect(unanswered.size).toBe(WRITERS);
    const { streams } = await gcp.query<{ streams: { totalCount: number } }>(STREAMS);
    expect(streams.totalCount).toBe(answered.size);
    for (const name of unanswered) {
      const found = await gcp.query<{ stream: unknown }>(`{ stream(name: "${name}") { name } }`);
      expect({ name, stream: found.stream }).toEqual({ name, stream: null });
    }
  });
}
