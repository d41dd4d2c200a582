import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getIntrospectionQuery, parse, specifiedRules, validate } from "graphql";
import { postGraphQL, seed } from "@stream-registry/testkit";
import { useRegistryProcess } from "@stream-registry/testkit/vitest";
import { checkCost } from "../src/graphql/guards/cost.ts";
import { DEFAULT_QUERY_LIMITS } from "../src/graphql/guards/query-limits.ts";
import { staticLimitRules } from "../src/graphql/guards/static-rules.ts";
import { checkTokens } from "../src/graphql/guards/tokens.ts";
import { buildSchema } from "../src/graphql/schema.ts";

const STREAM_BINDINGS = `{ stream(name: "wide") { bindings { fqn status { phase generation } } } }`;

/** A registry as users run it: its own process, in production mode. */
function useProductionRegistry(env: Record<string, string>) {
  return useRegistryProcess("pglite", { NODE_ENV: "production", LOG_LEVEL: "info", ...env });
}

describe("the run-time budget", () => {
  // The estimate assumes one binding per stream, so only the budget can stop a wide stream.
  const registry = useProductionRegistry({ QUERY_ASSUMED_LIST_SIZE: "1", QUERY_MAX_FIELDS: "60" });

  it("stops a request that resolves more fields than allowed, answers with the refusal alone, and stays up", async () => {
    const { url } = registry();
    const wide = await seed(registry()).stream({ name: "wide" });
    for (let i = 0; i < 20; i += 1) {
      await seed(registry()).binding({
        stream: wide,
        cluster: await seed(registry()).cluster({ name: `c${i}` }),
      });
    }
    for (let round = 0; round < 5; round += 1) {
      const answer = await postGraphQL(url, STREAM_BINDINGS);
      expect(answer.data ?? null).toBeNull();
      expect(answer.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining("fields limit"),
          extensions: expect.objectContaining({
            code: "QUERY_LIMIT_EXCEEDED",
            limit: "fields",
            max: 60,
            found: 61,
          }),
        }),
      ]);
    }
    // Within the budget, the same shape answers, from the same process.
    const narrow = await postGraphQL(url, `{ stream(name: "wide") { bindings { fqn } } }`);
    expect(narrow.errors).toBeUndefined();
    expect(
      registry()
        .entries()
        .filter((e) => e.msg === "resolver failed"),
    ).toEqual([]);
  });
});

describe("the time budget", () => {
  const registry = useProductionRegistry({ QUERY_TIMEOUT_MS: "1" });

  it("stops a query that runs longer than allowed, but never a mutation's own work", async () => {
    const { url } = registry();
    // Each mutation takes longer than 1 ms: they still answer in full.
    await seed(registry()).binding({
      stream: await seed(registry()).stream({ name: "slow" }),
      cluster: await seed(registry()).cluster({ name: "c1" }),
    });
    // The bindings come from the database, which takes more than 1 ms to answer.
    const answer = await postGraphQL(
      url,
      `{ streams { nodes { bindings { fqn cluster { health { status } } } } } }`,
    );
    expect(answer.errors).toEqual([
      expect.objectContaining({
        extensions: expect.objectContaining({ code: "QUERY_LIMIT_EXCEEDED", limit: "time", max: 1 }),
      }),
    ]);
  });
});

describe("the default limits", () => {
  const schema = buildSchema(() => false);
  const documented = ["../../../README.md", "../../../docs/providers.md"].flatMap((file) => {
    const text = readFileSync(new URL(file, import.meta.url), "utf8");
    return [...text.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m, i) => [
      `${file.slice(9)} #${i + 1}`,
      m[1]!,
    ]);
  });

  /** What a running registry checks before it executes, with the defaults. */
  function expectAllowed(query: string): void {
    const document = parse(query);
    expect(checkTokens(query, DEFAULT_QUERY_LIMITS.maxTokens)).toBeUndefined();
    expect(
      validate(schema, document, [...specifiedRules, ...staticLimitRules(DEFAULT_QUERY_LIMITS)]),
    ).toEqual([]);
    expect(() =>
      checkCost({ schema, document, operationName: null }, {}, DEFAULT_QUERY_LIMITS),
    ).not.toThrow();
  }

  it("have queries to check in the docs", () => {
    expect(documented.length).toBeGreaterThanOrEqual(3);
  });

  it.each(documented)("let %s through", (_name, query) => expectAllowed(query));

  it("let Apollo Sandbox's introspection query through", () => {
    expectAllowed(
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, specifiedByUrl: true }),
    );
  });

  it("count a page of 500 streams by its size", () => {
    const cost = (first: number) => {
      const document = parse(`{ streams(first: ${first}) { nodes { name bindings { fqn } } } }`);
      try {
        checkCost({ schema, document, operationName: null }, {}, { ...DEFAULT_QUERY_LIMITS, maxCost: 1 });
      } catch (error) {
        return (error as { extensions: { found: number } }).extensions.found;
      }
      return 0;
    };
    // streams + first x (nodes + name + bindings + 10 assumed x fqn)
    expect(cost(500)).toBe(1 + 500 * (1 + 1 + 1 + 10));
    expect(cost(10)).toBe(1 + 10 * (1 + 1 + 1 + 10));
  });
});
