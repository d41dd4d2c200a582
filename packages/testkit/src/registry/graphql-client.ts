/** A GraphQL response as it came over HTTP. */
export interface GraphQLResponse<T> {
  status: number;
  data?: T;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

/** Posts one operation to a registry over real HTTP. */
export async function postGraphQL<T = Record<string, unknown>>(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphQLResponse<T>> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
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
