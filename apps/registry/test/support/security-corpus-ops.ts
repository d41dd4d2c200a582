import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { TEST_ADMIN_TOKEN } from "@stream-registry/testkit";
import { Q, type Answer, type CorpusCase, type CorpusWorld, type TokenName } from "./security-corpus.ts";

// What the corpus's cases are made of: operations, principals, tokens of the tree, checks.

export const UNAUTHENTICATED = { status: 401, code: "UNAUTHENTICATED" } as const;
export const FORBIDDEN = { status: 403, code: "FORBIDDEN" } as const;
export const VALIDATION = { status: 400, code: "GRAPHQL_VALIDATION_FAILED" } as const;
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

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
export const as =
  (name: TokenName): Headers =>
  (w) =>
    bearer(w.tokens[name]);
export const ADMIN: Headers = () => bearer(TEST_ADMIN_TOKEN);
/** An API token no registry made. */
export const unknownToken: Headers = () => bearer(`srt_${randomBytes(32).toString("base64url")}`);
/** A user of the trusted issuer in the group granted reader at the root. */
export const oidcReader: Headers = async (w) => bearer(await w.issuer.sign({ groups: ["oidc-readers"] }));
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

/** The operations every attack with a token of the tree is tried with, sent straight to the child /aws. */
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

/** The claims of the root's token at /aws acting for the user `sub`. */
export const forUser = (sub: string) => (w: CorpusWorld) => ({
  sub,
  aud: `registry:${w.ids.aws}`,
  act: { sub: `registry:${w.ids.root}` },
});
/** The user `sub`, forwarded to /aws by the root. */
export const forwarded =
  (sub: string): Headers =>
  async (w) =>
    bearer(await w.asRoot.sign(forUser(sub)(w)));
/** The claims of the root's own token at /aws (no user). */
export const parentOwnClaims = (w: CorpusWorld) => ({
  sub: `registry:${w.ids.root}`,
  aud: `registry:${w.ids.aws}`,
});
/** The root's own token (no user): it may read the change feed and documents at /aws, nothing else. */
export const parentOwn: Headers = async (w) => bearer(await w.asRoot.sign(parentOwnClaims(w)));
/** /aws's own token for the root: it may read its own registration there, nothing else. */
export const childOwn: Headers = async (w) =>
  bearer(await w.asAws.sign({ sub: `registry:${w.ids.aws}`, aud: `registry:${w.ids.root}` }));

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
/** Answered (HTTP 200, no code), as `check` has it. */
export const shown = (check: (a: Answer) => void): CorpusCase["expected"] => ({
  status: 200,
  code: null,
  check,
});
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

/** A credential that must not authenticate, and what it is called in the cases' names. */
export interface Attack {
  label: string;
  headers: Headers;
}

/** Every attack tried with every operation at `to`: each refused as unauthenticated. */
export function attackCases(category: string, to: Target, attacks: Attack[], ops: Op[]): CorpusCase[] {
  const { cases, add } = caseList();
  for (const attack of attacks)
    for (const o of ops) add(category, `${attack.label}, ${o.label}`, to, attack.headers, o, UNAUTHENTICATED);
  return cases;
}
