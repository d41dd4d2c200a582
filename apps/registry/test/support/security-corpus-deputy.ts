import { type JWTPayload } from "jose";
import { expect } from "vitest";
import { Q, type CorpusCase, type CorpusWorld } from "./security-corpus.ts";
import {
  as,
  AWS_OPS,
  bearer,
  caseList,
  childOwn,
  FORBIDDEN,
  forUser,
  type Headers,
  input,
  nothingShown,
  op,
  parentOwn,
  parentOwnClaims,
  shown,
  UNAUTHENTICATED,
  unknownToken,
} from "./security-corpus-ops.ts";

// The corpus's registries asking beyond their own reads: a token the parent signed, replayed; the
// parent's own identity, and a child's, used as a deputy.

/** A token the root signed correctly, used once already ({ __typename }): the case replays it. */
const replayed =
  (claims: (w: CorpusWorld) => JWTPayload): Headers =>
  async (w) => {
    const token = await w.asRoot.sign(claims(w));
    const first = await fetch(w.aws.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...bearer(token) },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(first.status).toBe(200);
    return bearer(token);
  };

/** A token the parent signed, replayed (its first use, a harmless query, was accepted). */
export function replayedTokenCases(): CorpusCase[] {
  const { cases, add } = caseList();
  for (const o of AWS_OPS)
    add(
      "replayed token",
      `for a writer of /aws, ${o.label}`,
      "/aws",
      replayed(forUser("token:aws-writer")),
      o,
      UNAUTHENTICATED,
    );
  add(
    "replayed token",
    "the parent's own, changes",
    "/aws",
    replayed(parentOwnClaims),
    op("changes", Q.changes),
    UNAUTHENTICATED,
  );
  return cases;
}

/** No confused deputy: the parent's own identity, and a child's, give nothing beyond their reads. */
export function confusedDeputyCases(): CorpusCase[] {
  const { cases, add } = caseList();
  for (const o of [
    input("createStream", Q.createStream, { name: "deputy_s" }),
    input("updateStream (overwrite a secret)", Q.updateStream, {
      name: "aws_a",
      config: { "db.sink": { password: "x" } },
    }),
    input("declareCluster", Q.declareCluster, { name: "deputy-c" }),
    input("grant admin", Q.grant, { principal: "token:nobody", role: "admin" }),
    input("createApiToken", Q.createApiToken, { name: "deputy" }),
    op("rotateRegistryKey", Q.rotateKey),
  ])
    add("confused deputy", `the parent's own token at /aws, ${o.label}`, "/aws", parentOwn, o, FORBIDDEN);
  add(
    "confused deputy",
    "the parent's own token at /aws, streams (no list)",
    "/aws",
    parentOwn,
    op("streams", Q.streams),
    shown(nothingShown),
  );
  for (const o of [
    input("createStream", Q.createStream, { name: "child_s" }),
    input("grant admin", Q.grant, { principal: "token:nobody", role: "admin" }),
  ])
    add("confused deputy", `the child's own token at the root, ${o.label}`, "/", childOwn, o, FORBIDDEN);
  // The root forwards before anyone authorizes (docs/security.md); /aws2 refuses a parent acting for a registry.
  add(
    "confused deputy",
    "the child's own token at the root, createStream forwarded to /aws2",
    "/",
    childOwn,
    input("createStream", Q.createStream, { namespace: "/aws2", name: "child_s" }),
    UNAUTHENTICATED,
  );
  add(
    "confused deputy",
    "the child's own token at the root, streams and changes",
    "/",
    childOwn,
    op("lists", `{ streams { totalCount nodes { name } } changes { totalCount nodes { seq } } }`),
    shown(nothingShown),
  );
  for (const o of AWS_OPS.slice(0, 4))
    add(
      "confused deputy",
      `the child's token acting for a user at the root, ${o.label}`,
      "/",
      async (w) =>
        bearer(
          await w.asAws.sign({
            sub: "token:admin",
            aud: `registry:${w.ids.root}`,
            act: { sub: `registry:${w.ids.aws}` },
          }),
        ),
      o,
      UNAUTHENTICATED,
    );
  add(
    "confused deputy",
    "the root's API token sent to the child (tokens are per registry)",
    "/aws",
    as("writer"),
    AWS_OPS[0]!,
    UNAUTHENTICATED,
  );
  add(
    "confused deputy",
    "an unknown API token at the child, grant admin",
    "/aws",
    unknownToken,
    AWS_OPS[2]!,
    UNAUTHENTICATED,
  );
  return cases;
}
