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
