import { type JWTPayload } from "jose";
import { expect } from "vitest";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { Q, type Answer, type CorpusCase, type CorpusWorld, type TokenName } from "./security-corpus.ts";

// What the corpus's cases are made of: operations, principals, tokens of the tree, checks.

export const UNAUTHENTICATED = { status: 401, code: "UNAUTHENTICATED" } as const;
export const FORBIDDEN = { status: 403, code: "FORBIDDEN" } as const;
export const R = "********";
export type Headers = CorpusCase["headers"];
export type Target = CorpusCase["to"];

/** An operation a case sends: a body, and whether it tries to change something. */
export interface Op {
  label: string;
  body: { query: string; variables?: Record<string, unknown> };
  mutates: boolean;
}
export const op = (label: string, query: string, variables?: Record<string, unknown>): Op => ({
  label,
  body: { query, ...(variables ? { variables } : {}) },
  mutates: query.trimStart().startsWith("mutation"),
});
export const input = (label: string, query: string, value: Record<string, unknown>) =>
  op(label, query, { input: value });

export const as =
  (name: TokenName): Headers =>
  (w) => ({ authorization: `Bearer ${w.tokens[name]}` });
export const ADMIN: Headers = () => ({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
export const now = () => Math.floor(Date.now() / 1000);

// The operations every credential attack is tried with: writes of every kind (those only an admin
// may do among them), a write forwarded to a child, and the reads worth stealing.

export const ROOT_OPS: Op[] = [
  input("createStream", Q.createStream, { name: "intruder_s" }),
  input("updateStream (overwrite a secret)", Q.updateStream, {
    name: "widgets_a",
    config: { "db.sink": { db_password: "attacker-chosen", host: "evil" } },
  }),
  input("deleteStream", Q.deleteStream, { name: "gadgets_b" }),
  input("declareCluster (kafka at an internal host)", Q.declareCluster, {
    name: "scan",
    provider: "kafka",
    config: { "apache.kafka": { "bootstrap.servers": "127.0.0.1:5432" } },
  }),
  input("grant admin to itself", Q.grant, { principal: "token:nobody", role: "admin" }),
  input("createApiToken", Q.createApiToken, { name: "backdoor" }),
  input("createStream forwarded to /aws", Q.createStream, { namespace: "/aws", name: "intruder_s" }),
  op("streams", Q.streams),
  op("changes", Q.changes),
  op("_service { sdl }", Q.service),
];

/** Credentials that must not authenticate at the root (each with every ROOT_OPS operation). */
// Tokens of the tree, sent straight to the child /aws: forged, misaddressed, stretched, replayed.

export const AWS_OPS: Op[] = [
  input("createStream", Q.createStream, { name: "forged_s" }),
  input("updateStream (overwrite a secret)", Q.updateStream, {
    name: "aws_a",
    config: { "db.sink": { password: "attacker-chosen", host: "evil" } },
  }),
  input("grant admin", Q.grant, { principal: "token:nobody", role: "admin" }),
  op("streams", Q.streams),
  op("changes", Q.changes),
];

/** Tokens as if from the root, each wrong in one way. */
/** A token the root signed correctly, used once already ({ __typename }): the case replays it. */
export const replayed =
  (claims: (w: CorpusWorld) => JWTPayload): Headers =>
  async (w) => {
    const token = await w.asRoot.sign(claims(w));
    const first = await fetch(w.aws.url, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(first.status).toBe(200);
    return { authorization: `Bearer ${token}` };
  };
export const forUser = (sub: string) => (w: CorpusWorld) => ({
  sub,
  aud: `registry:${w.ids.aws}`,
  act: { sub: `registry:${w.ids.root}` },
});
/** The root's own token (no user): it may read the change feed and documents at /aws, nothing else. */
export const parentOwn: Headers = async (w) => ({
  authorization: `Bearer ${await w.asRoot.sign({ sub: `registry:${w.ids.root}`, aud: `registry:${w.ids.aws}` })}`,
});
/** /aws's own token for the root: it may read its own registration there, nothing else. */
export const childOwn: Headers = async (w) => ({
  authorization: `Bearer ${await w.asAws.sign({ sub: `registry:${w.ids.aws}`, aud: `registry:${w.ids.root}` })}`,
});

// ---------------------------------------------------------------------------------------------
// Checks of answers that are not refusals.

export const noSuggestion = (a: Answer) => expect(a.text).not.toMatch(/Did you mean/);
/** Every list in `data` is empty, every look-up null. */
export const nothingShown = (a: Answer) => {
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== "object") return;
    const record = value as Record<string, unknown>;
    if ("totalCount" in record) expect(record.totalCount).toBe(0);
    if ("nodes" in record) expect(record.nodes).toEqual([]);
    for (const child of Object.values(record)) walk(child);
  };
  expect(a.json.data).toBeTruthy();
  walk(a.json.data);
};
export const entitiesNull = (n: number) => (a: Answer) =>
  expect(a.json.data).toEqual({ _entities: Array(n).fill(null) });
/** Shown, with the secrets redacted (the corpus checks every answer for the planted values). */
export const redacted = (a: Answer) => {
  expect(a.json.errors).toBeUndefined();
  expect(a.text).toContain(R);
};

/** Adds one case: `body` an operation, or the parts of a request (a raw body, a GET...). */
export type Add = (
  category: string,
  name: string,
  to: Target,
  headers: Headers,
  body: Op | Partial<CorpusCase>,
  expected: CorpusCase["expected"],
  mutates?: boolean,
) => void;

/** A list of cases and the `add` that fills it. */
export function caseList(): { cases: CorpusCase[]; add: Add } {
  const cases: CorpusCase[] = [];
  const add: Add = (category, name, to, headers, body, expected, mutates) => {
    const shape: Partial<CorpusCase> =
      "label" in body
        ? { body: (body as Op).body, mutates: (body as Op).mutates }
        : (body as Partial<CorpusCase>);
    cases.push({
      category,
      name: `${category}: ${name}`,
      to,
      headers,
      mutates: mutates ?? shape.mutates ?? false,
      ...shape,
      expected,
    });
  };
  return { cases, add };
}
