import { TEST_AUTHORIZATION } from "./test-env.ts";

/** A GraphQL response as it came over HTTP. */
export interface GraphQLResponse<T> {
  status: number;
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

/**
 * Posts one operation to a registry over real HTTP, as the testkit's admin (TEST_ADMIN_TOKEN)
 * unless `headers` has an `authorization` of its own ("" sends none).
 */
export async function postGraphQL<T = Record<string, unknown>>(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<T>> {
  const response = await fetch(url, {
    method: "POST",
    headers: withAuthorization({ "content-type": "application/json", ...headers }),
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as Omit<GraphQLResponse<T>, "status">;
  return { status: response.status, ...body };
}

/** What the seed builders and `mutate()` need of a registry: one operation over HTTP. */
export interface GraphQLClient {
  request<T = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphQLResponse<T>>;
}

/** A client of the registry at `url`. */
export interface RegistryClient extends GraphQLClient {
  url: string;
  /** Runs an operation and returns its data; throws on GraphQL errors. */
  query<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T>;
}

export function registryClient(url: string): RegistryClient {
  return {
    url,
    request: (query, variables, headers) => postGraphQL(url, query, variables, headers),
    async query<T>(query: string, variables?: Record<string, unknown>) {
      const response = await postGraphQL<T>(url, query, variables);
      if (response.errors?.length)
        throw new Error(`GraphQL errors: ${JSON.stringify(response.errors, null, 2)}`);
      return response.data as T;
    },
  };
}

/**
 * `headers` with the testkit admin's Authorization, unless they have one of their own (any case);
 * an empty one is left out: the request goes without.
 */
export function withAuthorization(headers: Record<string, string>): Record<string, string> {
  const own = Object.keys(headers).find((name) => name.toLowerCase() === "authorization");
  if (own === undefined) return { ...headers, authorization: TEST_AUTHORIZATION };
  if (headers[own] !== "") return headers;
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name !== own));
}
