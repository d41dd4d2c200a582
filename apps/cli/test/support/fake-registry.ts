import { createServer, type Server } from "node:http";
import { text } from "node:stream/consumers";

export interface ReceivedRequest {
  query: string;
  variables: Record<string, unknown> | undefined;
}

export interface FakeRegistry extends AsyncDisposable {
  url: string;
  requests: ReceivedRequest[];
}

/**
 * A small HTTP server that answers GraphQL requests from a function: for what no real registry
 * can do yet (federation's partial results, operations the server will add). Its introspection
 * answer lists `fields`, or is refused as in production when `fields` is undefined.
 */
/** The root fields a fake registry has, and the fields of the object types srctl probes. */
export type FakeFields = { Query: string[]; Mutation: string[] } & Record<string, string[]>;

export async function startFakeRegistry(
  fields: FakeFields | undefined,
  answer: (request: ReceivedRequest) => { status?: number; body: unknown },
): Promise<FakeRegistry> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    void text(req).then((raw) => {
      const request = JSON.parse(raw) as ReceivedRequest;
      requests.push(request);
      const reply = request.query.includes("__schema") ? introspection(fields) : answer(request);
      res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function introspection(fields: FakeFields | undefined) {
  if (!fields) {
    return {
      status: 400,
      body: {
        errors: [
          {
            message:
              "GraphQL introspection is not allowed by Apollo Server, but the query contained __schema or __type.",
            extensions: { code: "GRAPHQL_VALIDATION_FAILED" },
          },
        ],
      },
    };
  }
  const list = (names: string[]) => ({ fields: names.map((name) => ({ name })) });
  const { Query, Mutation, ...types } = fields;
  const probed = Object.fromEntries(Object.entries(types).map(([type, names]) => [type, list(names)]));
  return {
    body: { data: { __schema: { queryType: list(Query), mutationType: list(Mutation) }, ...probed } },
  };
}
