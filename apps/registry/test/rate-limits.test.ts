import { ANONYMOUS, ENROLLMENT, ErrorCode, RegistryError, type Principal } from "@stream-registry/core";
import {
  attach,
  eventually,
  launchRegistry,
  mutate,
  registryNode,
  seedChain,
  TEST_AUTHORIZATION,
  TREE_TOKEN,
  type RegistryNode,
  CREATE_STREAM,
} from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.ts";
import { rateKey, rateLimitedError, RateLimits } from "../src/graphql/guards/rate-limit.ts";

const CREATE_TOKEN = `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret userErrors { code } } }`;
const GRANT = `mutation ($input: GrantInput!) { grant(input: $input) { created userErrors { code } } }`;
const STREAM = `query ($name: String!) { stream(name: $name) { name } }`;
/** Estimated cost 1 + 2 * first (a node's name, and the node). */
const page = (first: number, extra = "") => `{ ${extra} streams(first: ${first}) { nodes { name } } }`;
/** Estimated cost 23,501: a page of 500 with configs, bindings and their clusters. */
const HEAVY = `{ streams(first: 500) { nodes {
  name namespace config producerConfig consumerConfig bindings { fqn isDefault cluster { name } } } } }`;

interface Answer {
  status: number;
  retryAfter: string | null;
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** One operation over HTTP with `authorization`, with the HTTP status and Retry-After header. */
async function send(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  authorization = TEST_AUTHORIZATION,
): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as Omit<Answer, "status" | "retryAfter">;
  return { status: response.status, retryAfter: response.headers.get("retry-after"), ...body };
}

/** Checks a refusal: 429 RATE_LIMITED with Retry-After as in its extensions, nothing answered. */
function rateLimited(answer: Answer): Record<string, unknown> {
  expect(answer.status, JSON.stringify(answer)).toBe(429);
  expect(answer.data ?? null).toBeNull();
  expect(answer.errors).toHaveLength(1);
  const extensions = answer.errors![0]!.extensions!;
  expect(extensions).toMatchObject({ code: "RATE_LIMITED", limit: "rate" });
  expect(answer.retryAfter).toBe(String(extensions.retryAfterSeconds));
  return extensions;
}

const ok = (answer: Answer) => expect(answer, JSON.stringify(answer)).toMatchObject({ status: 200 });
const principal = (subject: string, via: Principal["via"], forwardedBy?: string): Principal => ({
  subject,
  issuer: "registry:self",
  local: forwardedBy === undefined,
  groups: [],
  via,
  ...(forwardedBy ? { chain: [{ id: forwardedBy }] } : {}),
});

describe("rate limits: whose allowance a request spends", () => {
  it("is the subject's; callers without an identity by address; never the parent's", () => {
    const at = { remoteAddress: "10.1.2.3", hops: 0 };
    expect(rateKey({ principal: principal("token:ci", "token"), ...at })).toBe("token:ci");
    expect(rateKey({ principal: principal("user:alice", "oidc"), ...at })).toBe("user:alice");
    expect(rateKey({ principal: principal("registry:child-1", "child"), ...at })).toBe("registry:child-1");
    expect(rateKey({ principal: ANONYMOUS, ...at })).toBe("anonymous from 10.1.2.3");
    expect(rateKey({ principal: ENROLLMENT, ...at })).toBe("enrollment from 10.1.2.3");
    // The parent's own calls, and a user's request it forwards (it charged the user already).
    expect(rateKey({ principal: principal("registry:root", "parent"), ...at })).toBeUndefined();
    expect(rateKey({ principal: principal("user:alice", "parent", "root"), ...at })).toBeUndefined();
    // REGISTRY_AUTH=none: what the tree forwards (with its hop header) is the parent's.
    expect(rateKey({ principal: ANONYMOUS, remoteAddress: "10.1.2.3", hops: 1 })).toBeUndefined();
  });
});

describe("rate limits: charging", () => {
  const as = (limits: RateLimits, subject: string) =>
    limits.forRequest({ principal: principal(subject, "token"), remoteAddress: undefined, hops: 0 });

  it("spends the operation's cost; a refusal names the limit and when to retry, and spends nothing", async () => {
    const limits = new RateLimits({ points: 100, windowSeconds: 60 });
    expect(await as(limits, "token:a").chargeOperation(60)).toBeUndefined();
    const refused = await as(limits, "token:a").chargeOperation(50);
    expect(refused).toBeInstanceOf(RegistryError);
    expect(refused!.code).toBe(ErrorCode.RATE_LIMITED);
    expect(refused!.details).toMatchObject({ points: 100, windowSeconds: 60, cost: 50, remaining: 40 });
    expect(refused!.details.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused!.details.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(refused!.message).toMatch(
      /^rate limit: token:a may spend 100 query-cost points per 60 s, and this request costs 50 \(its estimated cost\), with 40 left; retry in \d+ s$/,
    );
    // What the refused request would have cost is still there, and another principal is apart.
    expect(await as(limits, "token:a").chargeOperation(40)).toBeUndefined();
    expect(await as(limits, "token:a").chargeOperation(1)).toBeDefined();
    expect(await as(limits, "token:b").chargeOperation(100)).toBeUndefined();
  });

  it("says when a request costs more than the whole limit", () => {
    const error = rateLimitedError({
      who: "token:a",
      points: 100,
      windowSeconds: 10,
      cost: 500,
      children: 0,
      remaining: 100,
      retryAfterSeconds: 10,
    });
    expect(error.message).toBe(
      "rate limit: token:a may spend 100 query-cost points per 10 s, and this request costs 500 (its estimated cost), more than the whole limit: ask for less (smaller pages, fewer fields, one namespace rather than the subtree)",
    );
  });

  it("charges the operation's cost again for each child asked, all at once, or refuses the fan-out", async () => {
    const limits = new RateLimits({ points: 100, windowSeconds: 60 });
    const request = as(limits, "token:a");
    expect(await request.chargeOperation(20)).toBeUndefined();
    await request.chargeChildren(3); // 60 more: 80 spent
    await expect(request.chargeChildren(2)).rejects.toMatchObject({
      code: ErrorCode.RATE_LIMITED,
      message: expect.stringContaining("asking 2 child registries costs 40"),
      details: { cost: 40, remaining: 20 },
    });
    // Once refused, the request asks no child more.
    await expect(request.chargeChildren(1)).rejects.toBe(request.refused);
    expect(request.refused?.code).toBe(ErrorCode.RATE_LIMITED);
    // The refused 40 were not spent.
    expect(await as(limits, "token:a").chargeOperation(20)).toBeUndefined();
  });

  it("charges a request's operation once: a pass-through that went on as usual is not charged twice", async () => {
    const limits = new RateLimits({ points: 100, windowSeconds: 60 });
    const request = as(limits, "token:a");
    expect(await request.chargeOperation(30)).toBeUndefined();
    expect(await request.chargeOperation(30)).toBeUndefined();
    // 30 spent, not 60: a new request of 70 still fits, and one more point does not.
    expect(await as(limits, "token:a").chargeOperation(70)).toBeUndefined();
    expect(await as(limits, "token:a").chargeOperation(1)).toBeDefined();
    // A refused charge is no charge: the request is refused again when asked again.
    const late = as(limits, "token:a");
    expect(await late.chargeOperation(5)).toBeDefined();
    expect(await late.chargeOperation(5)).toBeDefined();
  });

  it("counts nobody with 0 points, nor the parent", async () => {
    expect(as(new RateLimits({ points: 0, windowSeconds: 10 }), "token:a").counted).toBe(false);
    const limits = new RateLimits({ points: 1, windowSeconds: 10 });
    const parent = limits.forRequest({
      principal: principal("registry:root", "parent"),
      remoteAddress: undefined,
      hops: 1,
    });
    expect(parent.counted).toBe(false);
    expect(await parent.chargeOperation(1_000)).toBeUndefined();
    await parent.chargeChildren(10);
  });
});

describe("rate limits: configuration", () => {
  it("has a default generous for forty requests of the largest cost a second", () => {
    const { rateLimit, queryLimits } = loadConfig({}, "/srv");
    expect(rateLimit.points / rateLimit.windowSeconds).toBeGreaterThanOrEqual(40 * queryLimits.maxCost);
    expect(loadConfig({ REGISTRY_RATE_LIMIT_POINTS: "0" }, "/srv").rateLimit.points).toBe(0);
    expect(
      loadConfig({ REGISTRY_RATE_LIMIT_POINTS: "500", REGISTRY_RATE_LIMIT_WINDOW_S: "2" }, "/srv").rateLimit,
    ).toEqual({ points: 500, windowSeconds: 2 });
  });

  it.each([
    ["REGISTRY_RATE_LIMIT_POINTS", "-1", "must be 0 (no rate limit) or more query-cost points"],
    ["REGISTRY_RATE_LIMIT_POINTS", "lots", "must be a whole number of query-cost points (0: no rate limit)"],
    ["REGISTRY_RATE_LIMIT_POINTS", "1.5", "must be a whole number of query-cost points (0: no rate limit)"],
    ["REGISTRY_RATE_LIMIT_WINDOW_S", "0", "must be a whole number of seconds, at least 1"],
    ["REGISTRY_RATE_LIMIT_WINDOW_S", "1m", "must be a whole number of seconds, at least 1"],
    ["REGISTRY_RATE_LIMIT_WINDOW_S", "100000", "must be at most 86400 seconds (a day)"],
  ])("refuses %s=%s, naming it", (name, value, rule) => {
    expect(() => loadConfig({ [name]: value }, "/srv")).toThrow(`invalid configuration:\n  ${name}: ${rule}`);
  });

  it("stops a registry from starting with a bad value, naming the variable", async () => {
    const refused = launchRegistry({ REGISTRY_RATE_LIMIT_POINTS: "plenty" });
    expect(await refused.started).toBeUndefined();
    expect(await refused.exited).toBe(1);
    expect(refused.logs.join("\n")).toContain(
      "REGISTRY_RATE_LIMIT_POINTS: must be a whole number of query-cost points (0: no rate limit)",
    );
  }, 60_000);
});

// A registry in production with authentication on, and a rate limit of 300 points per 4 s: tokens
// the admin makes spend it (the admin's own setup spends a few dozen points).
describe("rate limits at a registry process", () => {
  const POINTS = 300;
  const registry = useRegistryProcess("pglite", {
    NODE_ENV: "production",
    REGISTRY_AUTH: "on",
    REGISTRY_RATE_LIMIT_POINTS: String(POINTS),
    REGISTRY_RATE_LIMIT_WINDOW_S: "4",
  });
  const bearer: Record<string, string> = {};
  const as = (name: string, query: string, variables?: Record<string, unknown>) =>
    send(registry().url, query, variables, bearer[name]);

  beforeAll(async () => {
    for (const name of ["alice", "bob", "carol", "dave"]) {
      const made = await mutate<{ secret: string }>(registry(), CREATE_TOKEN, { input: { name } });
      bearer[name] = `Bearer ${made.secret}`;
      await mutate(registry(), GRANT, { input: { principal: `token:${name}`, role: "writer" } });
    }
  }, 60_000);

  it("refuses a principal over its points with 429 RATE_LIMITED and Retry-After, applying nothing; others are served; after the window it is served again", async () => {
    // 299 of alice's 300 points, then a mutation (38): refused, and not applied.
    ok(await as("alice", page(149)));
    const refused = rateLimited(await as("alice", CREATE_STREAM, { input: { name: "by_alice" } }));
    expect(refused).toMatchObject({ points: POINTS, windowSeconds: 4, cost: 38, remaining: 1 });
    expect(await as("alice", CREATE_STREAM, { input: { name: "by_alice" } })).toMatchObject({ status: 429 });
    // Bob, at the same time, spends his own points.
    const bobs = await as("bob", CREATE_STREAM, { input: { name: "by_bob" } });
    ok(bobs);
    expect(bobs.data).toMatchObject({ createStream: { stream: { name: "by_bob" }, userErrors: [] } });
    const stream = async (name: string) =>
      ((await send(registry().url, STREAM, { name })).data as { stream: unknown } | undefined)?.stream;
    expect(await stream("by_alice")).toBeNull();
    expect(await stream("by_bob")).toEqual({ name: "by_bob" });
    // Once the window has passed, alice is served again (asked until then: a refused charge costs nothing).
    const again = await eventually(
      async () => {
        const answer = await as("alice", CREATE_STREAM, { input: { name: "by_alice" } });
        return answer.status === 429 ? undefined : answer;
      },
      10_000,
      "alice's window to pass",
    );
    expect(again.data).toMatchObject({ createStream: { stream: { name: "by_alice" }, userErrors: [] } });
    expect(await stream("by_alice")).toEqual({ name: "by_alice" });
  });

  it("weights requests by their cost: a costly one spends more, one over the whole limit is refused where cheap ones pass", async () => {
    // Carol asks five cheap pages (3 points each), dave one page of 100 (201 points); a request
    // over the whole limit (401) then tells what each has left, and spends nothing itself.
    for (let i = 0; i < 5; i += 1) ok(await as("carol", page(1)));
    ok(await as("dave", page(100)));
    const carol = rateLimited(await as("carol", page(200)));
    const dave = rateLimited(await as("dave", page(200)));
    expect(carol).toMatchObject({ cost: 401, remaining: POINTS - 15 });
    expect(dave).toMatchObject({ cost: 401, remaining: POINTS - 201 });
    expect((await as("carol", page(200))).errors?.[0]?.message).toContain(
      "token:carol may spend 300 query-cost points per 4 s, and this request costs 401 (its estimated cost), more than the whole limit",
    );
    ok(await as("carol", page(1)));
  });
});

// A root with two children, in production with authentication on. The root allows 20,000 points
// (per 10 minutes: nothing here waits for a window); each child only 160, just enough for the
// admin's own attach (naming it, its parent, and granting the root's admin token admin there:
// issue 19), and less than one page of 100 streams costs.
describe("rate limits across the tree", { timeout: 240_000 }, () => {
  const ROOT_POINTS = 20_000;
  const env = (points: number) => ({
    NODE_ENV: "production",
    REGISTRY_AUTH: "on",
    REGISTRY_ENROLLMENT_TOKEN: TREE_TOKEN,
    REGISTRY_RATE_LIMIT_POINTS: String(points),
    REGISTRY_RATE_LIMIT_WINDOW_S: "600",
  });
  const nodes: RegistryNode[] = [];
  let root: RegistryNode;
  let aws: RegistryNode;
  const bearer: Record<string, string> = {};

  beforeAll(async () => {
    root = await registryNode("/", "pglite", env(ROOT_POINTS));
    nodes.push(root);
    aws = await registryNode("/aws", "pglite", env(160));
    nodes.push(aws, await registryNode("/gcp", "pglite", env(160)));
    await Promise.all(nodes.map((node) => node.start()));
    for (const child of nodes.slice(1)) await attach(child, root);
    for (const name of ["local", "fanout", "edge"]) {
      const made = await mutate<{ secret: string }>(root, CREATE_TOKEN, { input: { name } });
      bearer[name] = `Bearer ${made.secret}`;
      await mutate(root, GRANT, { input: { principal: `token:${name}`, role: "reader" } });
    }
  }, 300_000);
  afterEach((context) => {
    if (context.task.result?.state !== "fail") return;
    for (const node of nodes) {
      // eslint-disable-next-line no-console -- a failing test shows what the registries logged
      console.error(`registry ${node.path} log:\n${node.logs().slice(-60).join("\n")}`);
    }
  });
  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.dispose()));
  });

  it("charges a list that asks both children three times what the same list from the index costs", async () => {
    // 21 points: from the root's index (no child asked), or LIVE (both children asked).
    ok(await send(root.url, page(10), {}, bearer.local));
    ok(
      await send(root.url, `{ streams(first: 10, consistency: LIVE) { nodes { name } } }`, {}, bearer.fanout),
    );
    const local = rateLimited(await send(root.url, HEAVY, {}, bearer.local));
    const fanout = rateLimited(await send(root.url, HEAVY, {}, bearer.fanout));
    const spent = (refusal: Record<string, unknown>) => ROOT_POINTS - Number(refusal.remaining);
    expect(spent(local)).toBe(21);
    expect(spent(fanout)).toBe(3 * spent(local));
  });

  it("refuses a fan-out the principal cannot pay for whole, before any child is asked: the refusal alone", async () => {
    // 19,970 points spent (19 index pages of 500 and one of 475), 30 left: the operation's 21
    // pass, its two children's 42 not.
    const pages = [...Array.from({ length: 19 }, () => 500), 475];
    const spend = pages.map((first, i) => `p${i}: streams(first: ${first}) { nodes { name } }`).join(" ");
    ok(await send(root.url, `{ ${spend} }`, {}, bearer.edge));
    const refused = rateLimited(
      await send(root.url, `{ streams(first: 10, consistency: LIVE) { nodes { name } } }`, {}, bearer.edge),
    );
    expect(refused).toMatchObject({ cost: 42, remaining: 9 });
    expect(refused.field).toEqual([]);
  });

  it("never refuses the parent at a child with a tiny limit, while a direct client of the child is refused", async () => {
    const BIG = `{ streams(first: 100, filter: { namespace: "/aws" }, consistency: LIVE) { nodes { namespace name } } }`;
    // Straight to the child, the admin's page of 100 (201 points) is over its whole limit.
    expect(rateLimited(await send(aws.url, page(100)))).toMatchObject({ points: 160, cost: 201 });
    // Through the root: forwarded mutations, the same page (three times over), and the index.
    await seedChain(root).at("/aws").stream({ name: "through_root_1" }).stream({ name: "through_root_2" });
    for (let i = 0; i < 3; i += 1) {
      const answer = await send(root.url, BIG);
      ok(answer);
      expect(answer.errors ?? []).toEqual([]);
      const { streams } = answer.data as { streams: { nodes: { namespace: string; name: string }[] } };
      expect(streams.nodes.map((s) => s.name).sort()).toEqual(["through_root_1", "through_root_2"]);
    }
    await eventually(
      async () => {
        const answer = await send(
          root.url,
          `{ streams(first: 5, filter: { namespace: "/aws" }) { nodes { name } } }`,
        );
        const names = (answer.data as { streams?: { nodes: { name: string }[] } } | undefined)?.streams
          ?.nodes;
        return names?.length === 2 || undefined;
      },
      30_000,
      "the root's index to hold /aws's two streams",
    );
    // The child still refuses its direct client.
    expect(rateLimited(await send(aws.url, page(100)))).toMatchObject({ points: 160 });
  });
});
