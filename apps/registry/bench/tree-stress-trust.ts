import { expect } from "vitest";
import { mutate, postGraphQL, TEST_AUTHORIZATION, type RegistryNode } from "@stream-registry/testkit";
import { Q } from "../test/support/security-corpus.ts";
import { bearer, codesOf, type Tally } from "./tree-stress-tally.ts";
import type { TreeWorld } from "./tree-stress-world.ts";

const ADMIN = { authorization: TEST_AUTHORIZATION };
const US = "/aws/us";
const STREAM = `query ($name: String!, $namespace: String) { stream(name: $name, namespace: $namespace) { name } }`;
const LIVE = `query ($filter: StreamFilter) { streams(first: 100, filter: $filter, consistency: LIVE) { totalCount nodes { name } } }`;
const CHANGES = `{ changes(first: 500) { nodes { entityKey actor } } }`;

/** Refused as FORBIDDEN, and nothing made. */
async function forbidden(node: RegistryNode, query: string, variables: object, headers: object) {
  const answer = await node.request(
    query,
    variables as Record<string, unknown>,
    headers as Record<string, string>,
  );
  expect(codesOf(answer)).toEqual(["FORBIDDEN"]);
}
/** Refused before anything: 401, one UNAUTHENTICATED error. */
async function unauthenticated(url: string, headers: Record<string, string>) {
  const answer = await postGraphQL(url, Q.streams, {}, headers);
  expect({ status: answer.status, codes: codesOf(answer) }).toEqual({
    status: 401,
    codes: ["UNAUTHENTICATED"],
  });
}
const actorsAt = async (node: RegistryNode, name: string) =>
  (await node.query<{ changes: { nodes: { entityKey: string; actor: string }[] } }>(CHANGES)).changes.nodes
    .filter((c) => c.entityKey.endsWith(name))
    .map((c) => c.actor);

/** Finding 1: principals with the same name in two registries are two principals. */
export async function identityProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "identity (finding 1)";
  const { root, aws, us, gcp, ids, tokens } = t;
  const create = (namespace: string, name: string) =>
    [Q.createStream, { input: { namespace, name } }] as const;
  await tally.probe(c, "the root's admin token, through the root, creates nothing in /aws/us", () =>
    forbidden(root, ...create(US, "by_root_admin"), ADMIN),
  );
  await tally.probe(c, "the root's admin token grants itself nothing at /aws/us", () =>
    forbidden(root, Q.grant, { input: { namespace: US, principal: "token:admin@/", role: "admin" } }, ADMIN),
  );
  await tally.probe(c, "the root's admin token creates nothing in /gcp", () =>
    forbidden(root, ...create("/gcp", "by_root_admin"), ADMIN),
  );
  await tally.probe(c, "/aws's admin token, through /aws, creates nothing in /aws/us", () =>
    forbidden(aws, ...create(US, "by_aws_admin"), ADMIN),
  );
  const twin = bearer(tokens.rootUsWriter);
  await tally.probe(c, "a root token named like /aws/us's writer lists nothing there", async () => {
    const listed = await root.request(LIVE, { filter: { namespace: US } }, twin);
    expect(listed.data).toEqual({ streams: { totalCount: 0, nodes: [] } });
  });
  await tally.probe(c, "a root token named like /aws/us's writer finds none of its streams", async () => {
    expect((await root.request(STREAM, { name: "us_1", namespace: US }, twin)).data).toEqual({
      stream: null,
    });
  });
  await tally.probe(c, "a root token named like /aws/us's writer writes nothing there", () =>
    forbidden(root, ...create(US, "by_twin"), twin),
  );
  await tally.probe(c, "the root's token is not a token of /aws/us", () => unauthenticated(us.url, twin));
  await tally.probe(c, "the root's token is not a token of /gcp", () => unauthenticated(gcp.url, twin));
  const asParent = async (claims: Record<string, unknown>) =>
    bearer(
      await t.w.asAws.sign({
        sub: "token:admin",
        aud: `registry:${ids.us}`,
        act: { sub: `registry:${ids.aws}` },
        ...claims,
      }),
    );
  await tally.probe(c, "/aws cannot forward /aws/us's own admin token (sub_iss the child)", async () =>
    unauthenticated(us.url, await asParent({ sub_iss: `registry:${ids.us}` })),
  );
  await tally.probe(c, "/aws cannot put /aws/us in the chain it forwards", async () =>
    unauthenticated(
      us.url,
      await asParent({ act: { sub: `registry:${ids.aws}`, act: { sub: `registry:${ids.us}` } } }),
    ),
  );
  await tally.probe(c, "a token signed as /aws for /gcp, where /aws is no parent, is refused", async () =>
    unauthenticated(
      gcp.url,
      bearer(
        await t.w.asAws.sign({
          sub: "token:admin",
          aud: `registry:${ids.gcp}`,
          act: { sub: `registry:${ids.aws}` },
        }),
      ),
    ),
  );
  // The twins: what is granted works, and the change log names the qualified principal.
  await tally.probe(c, "twin: /aws/us's own writer writes there", () =>
    mutate(us, ...create(US, "by_us_writer"), bearer(tokens.usWriter)),
  );
  await tally.probe(
    c,
    "twin: granted at /aws/us, the root's admin writes there, logged with its issuer and chain",
    async () => {
      await mutate(us, Q.grant, { input: { principal: "token:admin@/", role: "writer" } });
      try {
        await mutate(root, ...create(US, "by_root_granted"), ADMIN);
        expect(await actorsAt(us, "by_root_granted")).toEqual(["token:admin@/ via /aws"]);
      } finally {
        await mutate(us, Q.revoke, { input: { principal: "token:admin@/", role: "writer" } });
      }
      await forbidden(root, ...create(US, "by_root_revoked"), ADMIN);
    },
  );
}

/** Finding 2: groups and names minted below a registry's trust are not honoured by it. */
export async function groupProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "groups (finding 2)";
  const { root, aws, us, ids, tokens } = t;
  const bot = bearer(tokens.awsBot);
  await tally.probe(c, "/aws's token in /aws/us's admin group cannot grant itself admin there", () =>
    forbidden(
      aws,
      Q.grant,
      { input: { namespace: US, principal: "token:aws-bot@/aws", role: "admin" } },
      bot,
    ),
  );
  await tally.probe(c, "/aws's token in /aws/us's admin group writes nothing there", () =>
    forbidden(aws, Q.createStream, { input: { namespace: US, name: "by_bot" } }, bot),
  );
  await tally.probe(c, "/aws's token in /aws/us's admin group revokes nothing there", () =>
    forbidden(aws, Q.revoke, { input: { namespace: US, principal: "token:us-writer", role: "writer" } }, bot),
  );
  await tally.probe(c, "a root token in /aws/us's admin group writes nothing there", () =>
    forbidden(
      root,
      Q.createStream,
      { input: { namespace: US, name: "by_root_group" } },
      bearer(tokens.rootPlatform),
    ),
  );
  await tally.probe(c, "/aws signing the group for its token itself gains nothing at /aws/us", async () => {
    const signed = await t.w.asAws.sign({
      sub: "token:aws-bot",
      groups: ["us-platform"],
      aud: `registry:${ids.us}`,
      act: { sub: `registry:${ids.aws}` },
    });
    const answer = await us.request(Q.createStream, { input: { name: "by_signed_group" } }, bearer(signed));
    expect(answer.status === 401 || codesOf(answer).join() === "FORBIDDEN", JSON.stringify(answer)).toBe(
      true,
    );
  });
  await tally.probe(c, "/aws/us's grants name none of them", async () => {
    const { grants } = await us.query<{ grants: { nodes: { principal: string }[] } }>(Q.grants);
    const principals = grants.nodes.map((g) => g.principal);
    expect(principals.filter((p) => /aws-bot|root-platform/.test(p))).toEqual([]);
  });
  await tally.probe(
    c,
    "twin: a user of the identity provider /aws/us trusts keeps its groups through the tree",
    async () => {
      const alice = bearer(await t.w.issuer.sign({ sub: "alice", groups: ["us-writers"] }));
      await mutate(root, Q.createStream, { input: { namespace: US, name: "by_alice" } }, alice);
      expect(await actorsAt(us, "by_alice")).toEqual(["user:alice via /, /aws"]);
    },
  );
}
