import { CancelledError } from "../errors.ts";
import type { GraphQLClient } from "./graphql-client.ts";

export type RootType = "Query" | "Mutation";

/** Object types whose fields srctl selects only when the registry has them (e.g. Binding.flow). */
const PROBED_TYPES = ["Binding", "StreamSource", "StreamSink"] as const;
export type ProbedType = (typeof PROBED_TYPES)[number];

const INTROSPECT = `query SrctlCapabilities {
  __schema { queryType { fields { name } } mutationType { fields { name } } }
  ${PROBED_TYPES.map((type) => `${type}: __type(name: "${type}") { fields { name } }`).join("\n  ")}
}`;

type Introspected = {
  __schema: {
    queryType: { fields: { name: string }[] };
    mutationType: { fields: { name: string }[] } | null;
  };
} & { [T in ProbedType]?: { fields: { name: string }[] | null } | null };

type Fields = Map<RootType | ProbedType, Set<string>>;

/** The one introspection request of a session, shared by every run and its per-run views. */
interface Lookup {
  client: GraphQLClient;
  fields: Promise<Fields | undefined> | undefined;
}

/**
 * Which root fields the registry has, asked once per session, so that a statement whose operation
 * the server lacks is refused before anything is sent, and starts working when the server adds it.
 * Registries in production turn introspection off; then the answer is "unknown" and the caller
 * recognises the server's validation error instead.
 */
export class Capabilities {
  #lookup: Lookup;
  #signal: AbortSignal | undefined;

  constructor(client: GraphQLClient) {
    this.#lookup = { client, fields: undefined };
  }

  /**
   * The same capabilities for one run: `has` gives up with CancelledError when `signal` aborts. The
   * shared request itself goes on, as other runs may be waiting for it.
   */
  forRun(signal: AbortSignal | undefined): Capabilities {
    if (!signal) return this;
    const view = new Capabilities(this.#lookup.client);
    view.#lookup = this.#lookup;
    view.#signal = signal;
    return view;
  }

  /**
   * Whether the registry has the root field, or the field of a probed type: true or false when
   * introspection answered; undefined when it is disabled.
   */
  async has(root: RootType | ProbedType, field: string): Promise<boolean | undefined> {
    // A cancelled run sends nothing more, not even the shared question.
    if (this.#signal?.aborted) throw new CancelledError();
    const lookup = this.#lookup;
    lookup.fields ??= introspect(lookup.client).catch((error: unknown) => {
      lookup.fields = undefined; // an unreachable registry is asked again next time
      throw error;
    });
    const fields = await untilAborted(lookup.fields, this.#signal);
    return fields ? (fields.get(root)?.has(field) ?? false) : undefined;
  }
}

async function introspect(client: GraphQLClient): Promise<Fields | undefined> {
  const response = await client.request<Introspected>(INTROSPECT);
  const schema = response.data?.__schema;
  if (!schema || response.errors?.length) return undefined;
  const names = (fields: { name: string }[] | null | undefined) => new Set((fields ?? []).map((f) => f.name));
  return new Map<RootType | ProbedType, Set<string>>([
    ["Query", names(schema.queryType.fields)],
    ["Mutation", names(schema.mutationType?.fields)],
    ...PROBED_TYPES.map((type) => [type, names(response.data?.[type]?.fields)] as const),
  ]);
}

/** `promise`, or CancelledError as soon as `signal` aborts; the listener goes once either settles. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(new CancelledError());
    signal.addEventListener("abort", abort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
