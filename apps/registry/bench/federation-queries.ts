/**
 * The queries of bench:federation. Each variant has an operation name of its own, so that the
 * registries' request logs tell the variants apart; the text is otherwise the same where the rows
 * compare.
 */
export type Consistency = "INDEX" | "LIVE" | undefined;

const STREAM_FIELDS = `namespace name bindings { fqn isDefault status { phase generation observedGeneration } }`;

/** A page of streams with their bindings and statuses. */
export const discovery = (name: string, c: Consistency, count = true) =>
  `query ${name}($first: Int!, $after: String) { streams(first: $first, after: $after${c ? `, consistency: ${c}` : ""}) {
  ${count ? "totalCount " : ""}pageInfo { hasNextPage endCursor } edges { cursor node { ${STREAM_FIELDS} } } } }`;

/** A stream by key. */
export const lookup = (name: string) => `query ${name}($name: String!, $namespace: String) {
  stream(name: $name, namespace: $namespace) { generation ${STREAM_FIELDS} } }`;

export const ENTITIES = `query RootEntities($representations: [_Any!]!) {
  _entities(representations: $representations) { ... on Stream { generation ${STREAM_FIELDS} } } }`;

/** The same look-up answered from the root's index. */
export const INDEX_LOOKUP = `query RootIndexLookup($namespace: String!, $name: String!) {
  streams(filter: { namespace: $namespace, nameStartsWith: $name }, first: 1, consistency: INDEX) {
  nodes { generation ${STREAM_FIELDS} } } }`;

export const LAG = `query Lag($namespace: String!) { streams(filter: { namespace: $namespace }, first: 1, consistency: INDEX) {
  totalCount lag { namespace entriesBehind secondsBehind } } }`;

export const json = (query: string, variables: Record<string, unknown>) =>
  JSON.stringify({ query, variables });
