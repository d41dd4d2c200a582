/** What one request may ask of a registry; see docs/api.md "Query limits". */
export interface QueryLimits {
  /** Nesting of fields (introspection's own nesting is bounded by graphql-js). */
  maxDepth: number;
  /** Aliased fields in one operation, fragments included. */
  maxAliases: number;
  /** Directives in one operation. */
  maxDirectives: number;
  /** Lexical tokens in the query text. */
  maxTokens: number;
  /** Estimated cost: every field costs 1, times the items of the lists above it. */
  maxCost: number;
  /** Items assumed for a list that has no `first` argument (e.g. `Stream.bindings`). */
  assumedListSize: number;
  /** Fields one request may resolve while it runs, whatever the estimate said. */
  maxFields: number;
  /** Time one request may spend resolving fields. */
  timeoutMs: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxDepth: 12,
  maxAliases: 30,
  maxDirectives: 50,
  maxTokens: 5_000,
  maxCost: 50_000,
  assumedListSize: 10,
  maxFields: 100_000,
  timeoutMs: 30_000,
};
