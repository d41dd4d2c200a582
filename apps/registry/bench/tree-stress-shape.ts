import { expect } from "vitest";
import { TEST_AUTHORIZATION, type RegistryNode } from "@stream-registry/testkit";
import { LISTS, page, type List } from "../test/support/cursor-lists.ts";
import { Q } from "../test/support/security-corpus.ts";
import { bearer, type Tally } from "./tree-stress-tally.ts";
import type { TreeWorld } from "./tree-stress-world.ts";

/** `{"d":{"d":...1...}}`, `levels` deep, as text; `[[...1...]]` with `array`. */
const deep = (levels: number, array = false) =>
  array ? `${"[".repeat(levels)}1${"]".repeat(levels)}` : `${'{"d":'.repeat(levels)}1${"}".repeat(levels)}`;

/** Sends a raw JSON body; its status and every error code. */
async function raw(node: RegistryNode, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(node.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: TEST_AUTHORIZATION, ...headers },
    body,
  });
  const text = await response.text();
  const json = JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] };
  return { status: response.status, codes: (json.errors ?? []).map((e) => e.extensions?.code ?? "(none)") };
}
const body = (query: string, variables: string) =>
  `{"query":${JSON.stringify(query)},"variables":${variables}}`;
const ENTITIES = `query ($representations: [_Any!]!) { _entities(representations: $representations) { ... on Stream { name } } }`;
const representation = (namespace: string, name: string, extra: string) =>
  `{"__typename":"Stream","namespace":"${namespace}","name":"${name}","extra":${extra}}`;

/** Finding 7: deep and wide values from any authenticated caller are refused, never a 500. */
export async function shapeProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "depth and shape (finding 7)";
  const invalid = async (answer: Promise<{ status: number; codes: string[] }>) =>
    expect(await answer).toEqual({ status: 400, codes: ["INVALID_INPUT"] });
  const targets = [
    ["the root", t.root, "/aws/us", "us_1"],
    ["/aws", t.aws, "/aws/us", "us_1"],
    ["/aws/us", t.us, "/aws/us", "us_1"],
    ["/gcp", t.gcp, "/gcp", "gcp_1"],
  ] as const;
  for (const [label, node, namespace, name] of targets) {
    for (const array of [false, true])
      await tally.probe(c, `${label}: a representation with a 5,000-deep ${array ? "array" : "object"}`, () =>
        invalid(
          raw(
            node,
            body(ENTITIES, `{"representations":[${representation(namespace, name, deep(5_000, array))}]}`),
          ),
        ),
      );
    await tally.probe(c, `${label}: a createStream whose config is 5,000 deep`, () =>
      invalid(
        raw(
          node,
          body(
            Q.createStream,
            `{"input":{"namespace":"${namespace}","name":"deep_s","config":{"m":{"k":${deep(5_000)}}}}}`,
          ),
        ),
      ),
    );
    await tally.probe(c, `${label}: an unused variable 5,000 deep`, () =>
      invalid(raw(node, body("{ __typename }", `{"junk":${deep(5_000)}}`))),
    );
  }
  await tally.probe(c, "a reader: 2,000 representations through the root, not a 500", async () => {
    const many = Array.from({ length: 2_000 }, (_, i) => representation("/aws/us", `s_${i}`, "1")).join(",");
    const answer = await raw(
      t.root,
      body(ENTITIES, `{"representations":[${many}]}`),
      bearer(t.w.tokens.reader),
    );
    expect(answer.status).toBeLessThan(500);
    expect(answer.codes).not.toContain("INTERNAL_SERVER_ERROR");
  });
  await tally.probe(c, "a namespace 300 segments deep, not a 500", async () => {
    const namespace = `/${Array.from({ length: 300 }, () => "aws").join("/")}`;
    const answer = await raw(
      t.root,
      body(
        `query ($n: String) { stream(namespace: $n, name: "x") { name } }`,
        JSON.stringify({ n: namespace }),
      ),
    );
    expect(answer.status).toBeLessThan(500);
    expect(answer.codes).not.toContain("INTERNAL_SERVER_ERROR");
  });
  for (const [label, node] of targets)
    await tally.probe(c, `${label} still answers`, async () =>
      expect(await raw(node, '{"query":"{ __typename }"}')).toEqual({ status: 200, codes: [] }),
    );
}

/** Finding 10 on the grown tree: each of the root's lists takes its own cursors only. */
export async function cursorProbes(t: TreeWorld, tally: Tally): Promise<void> {
  const c = "cursors (finding 10)";
  const lists = Object.keys(LISTS) as List[];
  const cursors = new Map<List, string>();
  for (const list of lists) {
    await tally.probe(c, `${list} gives a cursor and pages on with it`, async () => {
      const first = await t.root.query<{ page: { pageInfo: { endCursor: string | null } } }>(page(list));
      expect(first.page.pageInfo.endCursor).toEqual(expect.any(String));
      const next = await t.root.request(page(list), { after: first.page.pageInfo.endCursor });
      expect(next.errors).toBeUndefined();
      cursors.set(list, first.page.pageInfo.endCursor!);
    });
  }
  for (const list of lists)
    for (const [other, cursor] of cursors) {
      if (other === list) continue;
      await tally.probe(c, `${list} refuses a cursor of ${other}`, async () => {
        const answer = await t.root.request(page(list), { after: cursor });
        expect(answer.data ?? null).toBeNull();
        expect(answer.errors?.[0]?.extensions?.code).toBe("INVALID_INPUT");
        expect(answer.errors?.[0]?.message).toContain(`after is a cursor of the list "${other}"`);
      });
    }
  await tally.probe(c, "a 5,000-character cursor is refused", async () => {
    const answer = await t.root.request(page("streams (LIVE)"), { after: "A".repeat(5_000) });
    expect(answer.errors?.[0]?.extensions?.code).toBe("INVALID_INPUT");
  });
}
