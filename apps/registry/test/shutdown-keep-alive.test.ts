import { Agent, request } from "node:http";
import { afterEach, expect, it } from "vitest";
import {
  createTestDatabase,
  databaseEnv,
  TEST_AUTHORIZATION,
  type TestDatabase,
  postGraphQL,
  CREATE_STREAM,
  spawnRegistry,
  type RegistryProcess,
  eventually,
} from "@stream-registry/testkit";

// Issue 19, finding 8: SIGTERM under keep-alive load ran to the shutdown deadline, as the writers
// kept sending on their connections, and then reset them, writes that had committed included.

const WRITERS = 20;
const processes: RegistryProcess[] = [];
let database: TestDatabase | undefined;

afterEach(async (context) => {
  for (const p of processes.splice(0)) {
    if (context.task.result?.state === "fail") console.error(p.logs.slice(-60).join("\n")); // eslint-disable-line no-console
    p.killGroup("SIGKILL");
    await p.exited;
  }
  await database?.drop();
});

it("answers every write it commits when stopped under 20 keep-alive writers, and exits before its deadline", async () => {
  // As the finding's registry ran: on PostgreSQL, in production.
  database = await createTestDatabase("postgres", "keepalive");
  const env = {
    ...databaseEnv(database.url, undefined),
    NODE_ENV: "production",
    SHUTDOWN_TIMEOUT_MS: "10000",
  };
  const first = await spawnRegistry(env, "npm start");
  processes.push(first);

  const agent = new Agent({ keepAlive: true, maxSockets: WRITERS });
  const answered = new Set<string>();
  const unanswered = new Set<string>();
  const refusals: unknown[] = [];
  // Each writer creates streams one after another on its own kept-alive connection, until a
  // request of its gets no answer (refused, or cut).
  const writer = async (w: number) => {
    for (let i = 0; ; i++) {
      const name = `w${w}_${i}`;
      const answer = await post(agent, first.url, {
        query: CREATE_STREAM,
        variables: { input: { name } },
      }).catch(() => undefined);
      if (!answer) return unanswered.add(name);
      const userErrors = (answer.body as { data?: { createStream?: { userErrors?: unknown[] } } }).data
        ?.createStream?.userErrors;
      if (answer.status === 200 && userErrors?.length === 0) answered.add(name);
      else refusals.push(answer);
    }
  };
  const writing = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  await eventually(async () => answered.size >= 2 * WRITERS || undefined, 30_000, "writes to be answered");

  first.kill("SIGTERM");
  await writing;
  agent.destroy();
  expect(await first.exited).toBe(0);
  expect(refusals).toEqual([]);
  // It did not wait for its deadline to cut connections: none was left with a request in flight.
  expect(first.entries()).not.toContainEqual(
    expect.objectContaining({ msg: "requests still running at shutdown; closing their connections" }),
  );
  expect(first.entries()).toContainEqual(expect.objectContaining({ msg: "registry stopped" }));

  // What the database holds: every answered write, and no unanswered one.
  const second = await spawnRegistry(env, "node");
  processes.push(second);
  const { data } = await postGraphQL<{ streams: { totalCount: number } }>(
    second.url,
    "{ streams(first: 1) { totalCount } }",
  );
  expect(unanswered.size).toBe(WRITERS);
  for (const name of unanswered) {
    const found = await postGraphQL<{ stream: unknown }>(second.url, `{ stream(name: "${name}") { name } }`);
    expect({ name, stream: found.data?.stream }).toEqual({ name, stream: null });
  }
  expect(data?.streams.totalCount).toBe(answered.size);
}, 120_000);

/** One POST on `agent`'s kept-alive connections; rejects when it gets no answer. */
function post(agent: Agent, url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(url, {
      agent,
      method: "POST",
      headers: {
        "content-type": "application/json",
        "content-length": payload.length,
        authorization: TEST_AUTHORIZATION,
      },
    });
    req.once("error", reject);
    req.once("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.once("error", reject);
      res.once("end", () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.end(payload);
  });
}
