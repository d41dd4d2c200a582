import { Q, type CorpusCase, type TokenName } from "./security-corpus.ts";
import {
  as,
  AWS_OPS,
  bearer,
  caseList,
  FORBIDDEN,
  forwarded,
  input,
  oidcReader,
  type Op,
  op,
} from "./security-corpus-ops.ts";

// The corpus's writes out of a principal's role or scope: a reader writing, a writer elsewhere.

/** Every mutation there is, at the root and forwarded, by readers of every kind. */
export function readerWritingCases(): CorpusCase[] {
  const { cases, add } = caseList();
  const WRITES: Op[] = [
    input("createStream", Q.createStream, { name: "by_reader" }),
    input("updateStream", Q.updateStream, { name: "widgets_a", config: { "acme.kafka": { team: "x" } } }),
    input("deleteStream", Q.deleteStream, { name: "gadgets_b", cascade: true }),
    input("createBinding", Q.createBinding, { stream: "widgets_b", cluster: "c2" }),
    input("updateBinding", Q.updateBinding, { stream: "gadgets_a", cluster: "c1", config: { m: { k: 1 } } }),
    input("deleteBinding", Q.deleteBinding, { stream: "gadgets_a", cluster: "c1" }),
    input("declareCluster", Q.declareCluster, { name: "c9" }),
    input("redeclare a cluster's config", Q.declareCluster, {
      name: "c1",
      config: { vault: { host: "evil" } },
    }),
    input("deleteCluster", Q.deleteCluster, { name: "c2" }),
    input("grant itself admin", Q.grant, { principal: "token:reader", role: "admin" }),
    input("revoke the admin", Q.revoke, { principal: "token:admin", role: "admin" }),
    input("createApiToken", Q.createApiToken, { name: "by_reader" }),
    input("revokeApiToken", Q.revokeApiToken, { name: "writer" }),
    input("declareParentRegistry", Q.declareParent, { url: "http://127.0.0.1:9/graphql", token: "x" }),
    op("dropParentRegistry", Q.dropParent),
    input("declareDefaultNamespace", Q.declareName, { name: "hijacked" }),
    op("rotateRegistryKey", Q.rotateKey),
    input("createStream forwarded to /aws", Q.createStream, { namespace: "/aws", name: "by_reader" }),
    input("updateStream forwarded to /aws", Q.updateStream, { namespace: "/aws", name: "aws_a", config: {} }),
    input("deleteStream forwarded to /aws2", Q.deleteStream, { namespace: "/aws2", name: "aws2_a" }),
  ];
  for (const o of WRITES) add("reader writing", o.label, "/", as("reader"), o, FORBIDDEN);
  add("reader writing", "an OIDC reader creating a stream", "/", oidcReader, WRITES[0]!, FORBIDDEN);
  add(
    "reader writing",
    "an OIDC user naming groups nobody granted",
    "/",
    async (w) => bearer(await w.issuer.sign({ sub: "admin", groups: ["admin", "admins", "platform"] })),
    WRITES[9]!,
    FORBIDDEN,
  );
  add(
    "reader writing",
    "a reader forwarded by the parent, createStream at /aws",
    "/aws",
    forwarded("token:reader"),
    AWS_OPS[0]!,
    FORBIDDEN,
  );
  return cases;
}

/** A writer out of its scope: /aws is not /aws2, nor /; a prefix is not another prefix. */
export function writerOutOfScopeCases(): CorpusCase[] {
  const { cases, add } = caseList();
  const outOfScope: [string, TokenName, Op[]][] = [
    [
      "a writer of /aws at /",
      "aws-writer",
      [
        input("createStream", Q.createStream, { name: "aws_w" }),
        input("updateStream", Q.updateStream, { name: "widgets_a", config: {} }),
        input("deleteStream", Q.deleteStream, { name: "gadgets_b" }),
        input("createBinding", Q.createBinding, { stream: "widgets_b", cluster: "c2" }),
      ],
    ],
    [
      "a writer of /aws at /aws2 (forwarded)",
      "aws-writer",
      [
        input("createStream", Q.createStream, { namespace: "/aws2", name: "aws_w" }),
        input("updateStream", Q.updateStream, { namespace: "/aws2", name: "aws2_a", config: {} }),
        input("deleteStream", Q.deleteStream, { namespace: "/aws2", name: "aws2_a" }),
      ],
    ],
    [
      "a writer of /aws",
      "aws-writer",
      [input("grant at /aws", Q.grant, { namespace: "/aws", principal: "token:aws-writer", role: "admin" })],
    ],
    [
      "a writer of widgets_",
      "prefixed",
      [
        input("createStream gadgets_x", Q.createStream, { name: "gadgets_x" }),
        input("createStream widget_x (a shorter prefix)", Q.createStream, { name: "widget_x" }),
        input("createStream Widgets_x (another case)", Q.createStream, { name: "Widgets_x" }),
        input("updateStream gadgets_a", Q.updateStream, { name: "gadgets_a", config: {} }),
        input("deleteStream gadgets_b", Q.deleteStream, { name: "gadgets_b" }),
        input("createBinding gadgets_b", Q.createBinding, { stream: "gadgets_b", cluster: "c2" }),
        input("updateBinding gadgets_a", Q.updateBinding, { stream: "gadgets_a", cluster: "c1", config: {} }),
        input("deleteBinding gadgets_a", Q.deleteBinding, { stream: "gadgets_a", cluster: "c1" }),
        input("createStream widgets_x at /aws", Q.createStream, { namespace: "/aws", name: "widgets_x" }),
      ],
    ],
    [
      "a principal without grants",
      "nobody",
      [
        input("createStream", Q.createStream, { name: "by_nobody" }),
        input("createStream at /aws", Q.createStream, { namespace: "/aws", name: "by_nobody" }),
      ],
    ],
  ];
  for (const [who, token, ops] of outOfScope)
    for (const o of ops) add("writer out of scope", `${who}, ${o.label}`, "/", as(token), o, FORBIDDEN);
  return cases;
}
