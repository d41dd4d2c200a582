import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { ApolloServer } from "@apollo/server";
import { ANONYMOUS, ENROLLMENT, ErrorCode, type Principal } from "@stream-registry/core";
import { isDatabaseUnavailable } from "@stream-registry/store";
import { AuthenticationError } from "../auth/authentication-error.ts";
import { isEnrollmentOnly, isIdentityProbe } from "../auth/enrollment.ts";
import { BUDGET_HEADER, budgetFrom, HOPS_HEADER } from "../graphql/child-calls.ts";
import type { GraphQLContext } from "../graphql/context.ts";
import type { PassedAnswer } from "../graphql/pass-through.ts";
import type { Logger } from "../logger.ts";
import { SCHEMA_REGISTRY_PREFIX } from "../schema-registry/rest/rest-handler.ts";
import type { Readiness } from "./readiness.ts";
import {
  ENROLLMENT_BODY_BYTES,
  handleGraphQL,
  readJsonBody,
  sendAnswer,
  sendJson,
} from "./apollo-handler.ts";
import { DATABASE_UNAVAILABLE_MESSAGE } from "../graphql/errors.ts";

export interface HttpDeps {
  apollo: ApolloServer<GraphQLContext>;
  /** Query text with more lexical tokens is refused before it is parsed. */
  maxTokens: number;
  logger: Logger;
  /**
   * Who the request is from, from its Authorization header (auth/authenticator.ts); throws an
   * AuthenticationError, answered 401, when that cannot be verified.
   */
  authenticate: (authorization: string | undefined) => Promise<Principal>;
  createContext: (request: {
    requestId: string;
    principal: Principal;
    hops: number;
    budgetEndsAt: number | undefined;
    /** The socket's peer: the rate limit counts callers without an identity by it. */
    remoteAddress: string | undefined;
    /** Aborts when the caller goes away before the answer is sent. */
    clientGone: AbortSignal;
  }) => GraphQLContext;
  /** Sees every error a request fails with outside GraphQL (a database that lost its tables). */
  onFault: (error: unknown, requestId: string) => void;
  /** A look-up a child answers, passed through to it (graphql/pass-through.ts). */
  passThrough: (body: unknown, context: GraphQLContext) => Promise<PassedAnswer | undefined>;
  /** Never shows error text: /readyz is anonymous. Logs under `requestId` instead. */
  readiness: (requestId: string) => Promise<Readiness>;
  /** The built-in schema registry's REST API, under /schema-registry (docs/schemas.md). */
  schemaRegistry: (req: IncomingMessage, res: ServerResponse, requestId: string) => Promise<void>;
}

/** The status logged for a request whose caller went away before its answer (as nginx logs it). */
const CLIENT_GONE_STATUS = 499;

/**
 * The registry's HTTP surface: /graphql (API, and Apollo Sandbox for browsers outside
 * production), /healthz (process alive), /readyz (can serve). One log line per request. /graphql
 * answers only a request whose credential is verified (401 otherwise); the two probes are open.
 */
export function createHttpServer(deps: HttpDeps): Server {
  return createServer((req, res) => {
    const started = performance.now();
    const requestId = headerValue(req, "x-request-id") ?? randomUUID();
    res.setHeader("x-request-id", requestId);
    // Filled in by route(); read when the response is done.
    let operationName: () => string | undefined = () => undefined;
    const gone = new AbortController();
    // After the answer was sent, or when the connection closed before: then the request's calls to
    // child registries are aborted (nobody waits for them), and the log says 499.
    res.on("close", () => {
      const answered = res.writableFinished;
      if (!answered) gone.abort(new Error("the caller went away before the answer"));
      deps.logger.info(
        {
          requestId,
          method: req.method,
          path: req.url,
          status: answered ? res.statusCode : CLIENT_GONE_STATUS,
          operationName: operationName(),
          durationMs: Math.round((performance.now() - started) * 10) / 10,
        },
        "request",
      );
    });
    route(req, res, requestId, gone.signal, (name) => (operationName = name)).catch((error: unknown) => {
      // Outside GraphQL's error handling: verifying a credential reads the database.
      deps.logger.error({ requestId, err: error }, "request failed");
      deps.onFault(error, requestId);
      if (res.headersSent) return res.destroy();
      const unavailable = isDatabaseUnavailable(error);
      sendJson(res, unavailable ? 503 : 500, {
        errors: [
          unavailable
            ? {
                message: DATABASE_UNAVAILABLE_MESSAGE,
                extensions: { code: ErrorCode.DATABASE_UNAVAILABLE, requestId },
              }
            : {
                message: "Internal server error",
                extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR, requestId },
              },
        ],
      });
    });
  });

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    requestId: string,
    clientGone: AbortSignal,
    setOperation: (name: () => string | undefined) => void,
  ) {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (path === "/healthz") return sendJson(res, 200, { status: "ok" });
    if (path === "/readyz") {
      const { ready, checks } = await deps.readiness(requestId);
      return sendJson(res, ready ? 200 : 503, { status: ready ? "ready" : "not ready", checks });
    }
    if (path === "/") {
      res.writeHead(302, { location: "/graphql" });
      return res.end();
    }
    if (path === SCHEMA_REGISTRY_PREFIX || path.startsWith(`${SCHEMA_REGISTRY_PREFIX}/`)) {
      return deps.schemaRegistry(req, res, requestId);
    }
    if (path !== "/graphql") return sendJson(res, 404, { error: `no route ${path}; the API is at /graphql` });
    // A credential is verified before the body is read: one that does not verify is refused at
    // once. Without any, only Apollo Sandbox's page, a request that only registers or
    // unregisters a child registry (its input carries the enrollment token and the child's
    // credential), and one that only asks this registry's id and public keys (a parent checking
    // who answers at a registering child's URL) are let through; the body is read, within its
    // size limit, to tell.
    let principal: Principal | undefined;
    let refusal: AuthenticationError | undefined;
    try {
      principal = await deps.authenticate(headerValue(req, "authorization"));
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      if (error.credentialGiven) return sendUnauthenticated(res, error, requestId);
      refusal = error;
      if (landingPage(req)) principal = ANONYMOUS;
    }
    // Without a credential, only a registration's size: more cannot be one.
    if (!principal && Number(req.headers["content-length"] ?? 0) > ENROLLMENT_BODY_BYTES)
      return sendUnauthenticated(res, refusal!, requestId);
    const { ok, body } = await readJsonBody(req, res, principal ? undefined : ENROLLMENT_BODY_BYTES);
    if (!ok) return;
    if (!principal) {
      if (!isEnrollmentOnly(body) && !isIdentityProbe(body))
        return sendUnauthenticated(res, refusal!, requestId);
      principal = ENROLLMENT;
    }
    // The tree's own headers count only from the registry above (or when nobody is verified):
    // from anyone else they are stripped, as a caller's identity headers are.
    const fromTree = principal.via === "parent" || principal.via === "none";
    // Registries a forwarded operation passed through (graphql/routed.ts); anything else is 0.
    const hops = fromTree ? Number.parseInt(headerValue(req, HOPS_HEADER) ?? "0", 10) : 0;
    const context = deps.createContext({
      requestId,
      principal,
      hops: Number.isSafeInteger(hops) && hops > 0 ? hops : 0,
      // How long the registry that forwarded it waits (graphql/child-calls.ts).
      budgetEndsAt: fromTree ? budgetFrom(headerValue(req, BUDGET_HEADER)) : undefined,
      remoteAddress: req.socket.remoteAddress,
      clientGone,
    });
    setOperation(() => context.requestLog.operationName ?? operationNameOf(body, req));
    const passed = await deps.passThrough(body, context);
    if (passed) return sendAnswer(res, req, passed.text);
    if (clientGone.aborted) return; // nobody to answer: not run again through Apollo
    await handleGraphQL(deps.apollo, req, res, body, async () => context, deps.maxTokens);
  }
}

/**
 * A browser asking for Apollo Sandbox (outside production): a GET without an operation, which runs
 * nothing, so it needs no credential; the Sandbox then sends the one its user sets in its headers.
 */
function landingPage(req: IncomingMessage): boolean {
  if (req.method !== "GET") return false;
  const params = new URL(req.url ?? "/", "http://localhost").searchParams;
  return !params.has("query") && !params.has("extensions");
}

/** 401 with the reason, as a GraphQL error and in WWW-Authenticate (RFC 6750). */
function sendUnauthenticated(res: ServerResponse, error: AuthenticationError, requestId: string): void {
  res.setHeader("www-authenticate", error.challenge);
  sendJson(res, 401, {
    errors: [{ message: error.message, extensions: { code: error.code, reason: error.reason, requestId } }],
  });
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

function operationNameOf(body: unknown, req: IncomingMessage): string | undefined {
  if (typeof body === "object" && body !== null && "operationName" in body) {
    const name = (body as { operationName?: unknown }).operationName;
    if (typeof name === "string") return name;
  }
  return new URL(req.url ?? "/", "http://localhost").searchParams.get("operationName") ?? undefined;
}
