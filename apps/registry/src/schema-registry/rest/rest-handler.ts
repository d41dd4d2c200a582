import type { IncomingMessage, ServerResponse } from "node:http";
import { actorOf, type Access, type Principal } from "@stream-registry/core";
import type { RequestRate } from "../../graphql/guards/rate-limit.ts";
import { readBodyText } from "../../http/request-body.ts";
import type { Logger } from "../../logger.ts";
import type { SchemaRegistry } from "../schema-registry.ts";
import { RestError } from "./rest-error.ts";
import { restErrorOf } from "./rest-errors.ts";
import { RawText, type Route } from "./rest-route.ts";
import { matchRoute } from "./rest-router.ts";
import { settingsRoutes } from "./settings-routes.ts";
import { subjectRoutes } from "./subject-routes.ts";

/** Where the REST API is served on the registry's HTTP server. */
export const SCHEMA_REGISTRY_PREFIX = "/schema-registry";

/** Confluent's media type, which its clients send and expect. */
const MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";
/** The bodies Confluent's API takes as JSON. */
const JSON_BODIES = /^(application\/(vnd\.schemaregistry(\.v1)?\+json|json|octet-stream))?$/;

const routes: readonly Route[] = [...subjectRoutes, ...settingsRoutes];

export interface SchemaRestDeps {
  registry: SchemaRegistry;
  /** Who the request is from, from its Authorization header (Basic with an API token, or Bearer). */
  authenticate(authorization: string | undefined): Promise<Principal>;
  accessOf(principal: Principal): Promise<Access>;
  /** The request's spending of its principal's rate limit (1 point a request). */
  rateOf(principal: Principal, remoteAddress: string | undefined): RequestRate;
  logger: Logger;
  /** Sees every fault a request fails with (a database that lost its tables). */
  onFault(error: unknown, requestId: string): void;
}

/**
 * The built-in schema registry's Confluent-compatible REST API (docs/schemas.md). Every request
 * is authenticated before anything else, charged one point of its principal's rate limit, and
 * authorized by its route's role on the registry's own namespace; its body is read only then.
 */
export function schemaRegistryHandler(deps: SchemaRestDeps) {
  return async (req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> => {
    try {
      const principal = await deps.authenticate(header(req, "authorization"));
      const refusal = await deps.rateOf(principal, req.socket.remoteAddress).chargeOperation(1);
      if (refusal) throw refusal;
      const url = new URL(req.url ?? "/", "http://localhost");
      const { route, params } = matchRoute(
        routes,
        req.method ?? "GET",
        url.pathname.slice(SCHEMA_REGISTRY_PREFIX.length),
      );
      if (route.role) (await deps.accessOf(principal)).require(route.role, "", route.doing);
      const body = route.body ? await readBody(req, res) : undefined;
      const answer = await route.handle({
        params,
        query: url.searchParams,
        body,
        actor: actorOf(principal),
        registry: deps.registry,
      });
      send(res, 200, answer instanceof RawText ? answer.text : JSON.stringify(answer));
    } catch (caught) {
      const { error, fault } = restErrorOf(caught, requestId);
      if (fault) {
        deps.logger.error({ requestId, err: caught }, "schema registry request failed");
        deps.onFault(caught, requestId);
      }
      if (res.headersSent) return void res.destroy();
      // Refused before a large (or unannounced) body was read: it is not read at all, and the
      // connection goes with it. A small one is left to Node, which drains it and keeps the
      // connection.
      if (!req.readableEnded && largeBody(req)) {
        res.setHeader("connection", "close");
        res.on("finish", () => req.destroy());
      }
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
      send(res, error.status, JSON.stringify({ error_code: error.errorCode, message: error.message }));
    }
  };
}

/** The JSON body: 415 for another media type, 413 when too large, 400 when not JSON. */
async function readBody(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
  const type = (header(req, "content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!JSON_BODIES.test(type)) {
    throw new RestError(415, 415, `HTTP 415 Unsupported Media Type: send ${MEDIA_TYPE} or application/json`);
  }
  const text = await readBodyText(req, res);
  if (text === undefined)
    throw new RestError(
      413,
      413,
      "HTTP 413 Payload Too Large: the request body is larger than the registry takes",
    );
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new RestError(
      400,
      400,
      `The request body is not valid JSON: ${(error as Error).message.slice(0, 200)}`,
    );
  }
}

/** More than 1 MiB announced, or a body of unannounced length. */
function largeBody(req: IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return length === undefined ? req.headers["transfer-encoding"] !== undefined : Number(length) > 1024 * 1024;
}

function send(res: ServerResponse, status: number, text: string): void {
  res.statusCode = status;
  res.setHeader("content-type", MEDIA_TYPE);
  res.end(text);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}
