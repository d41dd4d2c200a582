import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import {
  copyDatabase,
  everyRow,
  mutate,
  postGraphQL,
  TREE_TOKEN,
  type RedirectTrap,
  type RegistryNode,
} from "@stream-registry/testkit";
import { Q } from "../test/support/security-corpus.ts";
import { publicJwk } from "../test/support/seed-tree.ts";
import { codesOf, type Tally } from "./tree-stress-tally.ts";
import type { Cleanups, TreeWorld } from "./tree-stress-world.ts";

const REGISTER = `mutation ($input: RegisterChildRegistryInput!) {
  registerChildRegistry(input: $input) { child { path url } userErrors { code field message } } }`;
const UNREGISTER = `mutation ($input: UnregisterChildRegistryInput!) {
  unregisterChildRegistry(input: $input) { child { path } userErrors { code field message } } }`;
const CHILDREN = `{ childRegistries { path url registryId suspendedAt } }`;
type UserError = { code: string; field: string[]; message: string };
type Registered = { registerChildRegistry: { child: unknown; userErrors: UserError[] } };

/** A registration as anyone can send it: to `parent`, without an Authorization header. */
async function register(parent: RegistryNode, input: Record<string, unknown>): Promise<UserError[]> {
  const sdl = (await parent.query<{ _service: { sdl: string } }>("{ _service { sdl } }"))._service.sdl;
  const answer = await postGraphQL<Registered>(
    parent.url,
    REGISTER,
    {
      input: {
        registryId: randomUUID(),
        name: "intruder",
        version: "0.1.0",
        sdl,
        token: TREE_TOKEN,
        keys: [publicJwk()],
        ...input,
      },
    },
    { authorization: "" },
  );
  expect(answer.errors ?? []).toEqual([]);
  expect(answer.data?.registerChildRegistry.child ?? null).toBeNull();
  return answer.data!.registerChildRegistry.userErrors;
}
const children = async (node: RegistryNode) =>
  (await node.query<{ childRegistries: { path: string; url: string; registryId: string }[] }>(CHILDREN))
    .childRegistries;

/**
 * Findings 3 and 11: a copy of /aws/us's database (its registry stopped while it is taken, as a
 * backup is) holds no credential and no secret, and what it holds does not register, move or
 * remove /aws/us at /aws; nor does an enrollment token with no keys or a URL that is not the registry.
 */
export async function registrationProbes(t: TreeWorld, tally: Tally, cleanups: Cleanups): Promise<void> {
  const c = "registration and database copies (findings 3, 11)";
  const { aws, us } = t;
  const planted = {
    cluster: `SEKRET-us-cluster-${randomUUID()}`,
    stream: `SEKRET-us-stream-${randomUUID()}`,
    binding: `SEKRET-us-binding-${randomUUID()}`,
  };
  for (const [what, value] of Object.entries(planted)) t.used.set(`/aws/us's ${what} secret`, value);
  await mutate(us, Q.declareCluster, {
    input: { name: "us-vault", provider: "registry-only", config: { vault: { token: planted.cluster } } },
  });
  await mutate(us, Q.createStream, {
    input: { name: "us_secret", config: { "db.sink": { password: planted.stream } } },
  });
  await mutate(us, Q.createBinding, {
    input: { stream: "us_secret", cluster: "us-vault", config: { vault: { "api-key": planted.binding } } },
  });
  const { registry } = await us.query<{ registry: { id: string; version: string; keys: unknown[] } }>(
    "{ registry { id version keys } }",
  );
  const before = await children(aws);

  t.earlierLogs.set("/aws/us (before its database was copied)", us.logs());
  await us.stop();
  const copy = await copyDatabase(us.databaseUrl!, "stolen");
  cleanups.push(() => copy.drop());
  await us.start();
  const rows = await everyRow(copy.url!);

  await tally.probe(c, "the copy is of /aws/us (holds its registry id)", () =>
    expect(rows).toContain(registry.id),
  );
  await tally.probe(c, "the copy holds no enrollment token", () => expect(rows).not.toContain(TREE_TOKEN));
  for (const [what, value] of Object.entries(planted))
    await tally.probe(c, `the copy holds the ${what} secret only sealed`, () =>
      expect(rows).not.toContain(value),
    );
  await tally.probe(c, "the copy holds no API token in clear", () =>
    expect(rows).not.toContain(t.tokens.usWriter),
  );
  const attacker = `http://127.0.0.1:9/graphql`;
  await tally.probe(
    c,
    "the enrollment token and the copy's keys, without a proof, do not move /aws/us",
    async () => {
      const errors = await register(aws, {
        registryId: registry.id,
        name: "us",
        url: attacker,
        keys: registry.keys,
        version: registry.version,
      });
      expect(errors).toEqual([
        expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "proof"] }),
      ]);
    },
  );
  await tally.probe(c, "the enrollment token as a proof does not remove /aws/us", async () => {
    const answer = await postGraphQL<{ unregisterChildRegistry: { userErrors: UserError[] } }>(
      aws.url,
      UNREGISTER,
      { input: { registryId: registry.id, proof: TREE_TOKEN } },
      { authorization: "" },
    );
    expect(answer.data?.unregisterChildRegistry.userErrors).toEqual([
      expect.objectContaining({ code: "UNAUTHENTICATED", field: ["input", "proof"] }),
    ]);
  });
  await tally.probe(c, "a new registry with no keys is refused", async () =>
    expect(await register(aws, { keys: [], url: us.url })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "keys"] }),
    ]),
  );
  await tally.probe(c, "a new registry whose URL answers as another registry is refused", async () =>
    expect(await register(aws, { url: us.url })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "url"] }),
    ]),
  );
  await tally.probe(c, "a new registry whose URL answers nothing is refused", async () =>
    expect(await register(aws, { url: attacker })).toEqual([
      expect.objectContaining({ code: "INVALID_INPUT", field: ["input", "url"] }),
    ]),
  );
  await tally.probe(c, "a wrong enrollment token is refused", async () =>
    expect(await register(aws, { url: us.url, token: `wrong-${randomUUID()}` })).toEqual([
      expect.objectContaining({ code: "UNAUTHENTICATED" }),
    ]),
  );
  await tally.probe(c, "/aws still has /aws/us where it was, and nothing else", async () =>
    expect(await children(aws)).toEqual(before),
  );
  await tally.probe(c, "a reader of the root cannot suspend or list its children", async () => {
    const reader = { authorization: `Bearer ${t.w.tokens.reader}` };
    const suspend = await t.root.request(
      `mutation { suspendChildRegistry(input: { path: "/gcp" }) { userErrors { code } } }`,
      {},
      reader,
    );
    expect(codesOf(suspend)).toEqual(["FORBIDDEN"]);
    expect(codesOf(await t.root.request(CHILDREN, {}, reader))).toEqual(["FORBIDDEN"]);
  });
  await tally.probe(c, "/aws's admin cannot drop the root's child /gcp", async () => {
    const dropped = await t.root.request(
      `mutation { dropChildRegistry(input: { path: "/gcp" }) { userErrors { code } } }`,
      {},
      { authorization: `Bearer ${t.w.tokens["aws-admin"]}` },
    );
    expect(codesOf(dropped)).toEqual(["FORBIDDEN"]);
  });
}

/**
 * Finding 4: nothing a caller names makes a registry connect past REGISTRY_CONNECT_ALLOW. `trap`
 * redirects from 127.0.0.1 (allowed) to 127.0.0.2 (not).
 */
export async function redirectProbes(t: TreeWorld, tally: Tally, trap: RedirectTrap): Promise<void> {
  const trapPort = new URL(trap.trapUrl).port;
  const c = "redirects and the allow-list (finding 4)";
  const refusedOn = (field: string[], message: RegExp) => [
    expect.objectContaining({ code: "INVALID_INPUT", field, message: expect.stringMatching(message) }),
  ];
  for (const [label, parent] of [
    ["the root", t.root],
    ["/aws", t.aws],
  ] as const) {
    await tally.probe(c, `${label} does not follow a child URL's 307 to 127.0.0.2`, async () =>
      expect(await register(parent, { url: `${trap.url}/graphql` })).toEqual(
        refusedOn(
          ["input", "url"],
          /answered a redirect \(HTTP 307 to 127\.0\.0\.2:\d+\): redirects are not followed/,
        ),
      ),
    );
    for (const host of ["127.0.0.2", "2130706434", "[::ffff:127.0.0.2]"])
      await tally.probe(c, `${label} does not call a child URL at ${host}`, async () =>
        expect(await register(parent, { url: `http://${host}:${trapPort}/graphql` })).toEqual(
          refusedOn(["input", "url"], /not in REGISTRY_CONNECT_ALLOW/),
        ),
      );
  }
  const declare = (config: Record<string, unknown>) =>
    t.root.request(Q.declareCluster, {
      input: { name: `k-${randomUUID().slice(0, 8)}`, provider: "kafka", config },
    });
  await tally.probe(
    c,
    "a kafka cluster's bootstrap server at 127.0.0.2 is refused before connecting",
    async () => {
      const answer = await declare({ "apache.kafka": { "bootstrap.servers": `127.0.0.2:${trapPort}` } });
      expect(JSON.stringify(answer.data)).toMatch(/not in REGISTRY_CONNECT_ALLOW/);
      expect(codesOf(answer)).toEqual(["INVALID_INPUT"]);
    },
  );
  await tally.probe(c, "a cluster's schema registry at 127.0.0.2 is refused before connecting", async () => {
    const answer = await declare({
      "apache.kafka": { "bootstrap.servers": "127.0.0.1:9" },
      "schema.registry": { url: `${trap.trapUrl}/` },
    });
    expect(JSON.stringify(answer.data)).toMatch(/not in REGISTRY_CONNECT_ALLOW/);
    expect(codesOf(answer)).toEqual(["INVALID_INPUT"]);
  });
  await tally.probe(c, "the redirector was asked, and nothing reached 127.0.0.2", () => {
    expect(trap.asked()).toBeGreaterThan(0);
    expect(trap.trapped()).toBe(0);
  });
}
