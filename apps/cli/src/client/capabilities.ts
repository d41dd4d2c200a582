import type { GraphQLClient } from "./graphql-client.ts";

export type RootType = "Query" | "Mutation";

const INTROSPECT = `query SrctlCapabilities {
  __schema { queryType { fields { name } } mutationType { fields { name } } }
}`;

interface Introspected {
  __schema: {
    queryType: { fields: { name: string }[] };
    mutationType: { fields: { name: string }[] } | null;
  };
}

/**
 * Which root fields the registry has, asked once per session, so that a statement whose operation
 * the server lacks is refused before anything is sent, and starts working when the server adds it.
 * Registries in production turn introspection off; then the answer is "unknown" and the caller
 * recognises the server's validation error instead.
 */
export class Capabilities {
  readonly #client: GraphQLClient;
  #fields: Promise<Map<RootType, Set<string>> | undefined> | undefined;

  constructor(client: GraphQLClient) {
    this.#client = client;
  }

  /** True or false when introspection answered; undefined when it is disabled. */
  async has(root: RootType, field: string): Promise<boolean | undefined> {
    this.#fields ??= this.#introspect().catch((error: unknown) => {
      this.#fields = undefined; // an unreachable registry is asked again next time
      throw error;
    });
    const fields = await this.#fields;
    return fields ? (fields.get(root)?.has(field) ?? false) : undefined;
  }

  async #introspect(): Promise<Map<RootType, Set<string>> | undefined> {
    const response = await this.#client.request<Introspected>(INTROSPECT);
    const schema = response.data?.__schema;
    if (!schema || response.errors?.length) return undefined;
    return new Map<RootType, Set<string>>([
      ["Query", new Set(schema.queryType.fields.map((f) => f.name))],
      ["Mutation", new Set((schema.mutationType?.fields ?? []).map((f) => f.name))],
    ]);
  }
}
