import type { AddressInfo } from "node:net";
import { ApolloServer } from "@apollo/server";
import { DEFAULT_AUTO_RESTART, withDeadline } from "@stream-registry/core";
import {
  insertGrant,
  migrate,
  reregisterWithParent,
  writeTransaction,
  openDatabase,
  sealClearClusterSecrets,
  sealStoredSecrets,
  type Database,
} from "@stream-registry/store";
import { ApiTokenVerifier } from "./auth/api-token-verifier.ts";
import { Authenticator } from "./auth/authenticator.ts";
import { adminTokenNotice, bootstrapAdminToken, FIRST_ADMIN_GRANT } from "./auth/bootstrap-admin.ts";
import { OidcVerifier } from "./auth/oidc-verifier.ts";
import { parentKeysRefresher } from "./auth/parent-keys.ts";
import { RegistryKeys } from "./auth/registry-keys.ts";
import { RegistryTokenVerifier } from "./auth/registry-token-verifier.ts";
import { ReplayCache } from "./auth/replay-cache.ts";
import { checkClusterPresets } from "./cluster-presets-check.ts";
import type { RegistryConfig } from "./config.ts";
import type { GraphQLContext } from "./graphql/context.ts";
import { createErrorFormatter, errorLoggingPlugin } from "./graphql/errors.ts";
import { inputTextPlugin } from "./graphql/guards/input-text.ts";
import { knownOperationTypesRule } from "./graphql/guards/operation-types.ts";
import { queryBudgetPlugin } from "./graphql/guards/budget-plugin.ts";
import { RateLimits } from "./graphql/guards/rate-limit.ts";
import { rateLimitPlugin } from "./graphql/guards/rate-limit-plugin.ts";
import { schemaVisibilityPlugin } from "./graphql/guards/schema-visibility.ts";
import { staticLimitRules } from "./graphql/guards/static-rules.ts";
import { createLoaders } from "./graphql/loaders.ts";
import { createPassThrough } from "./graphql/pass-through.ts";
import { operationNamePlugin } from "./graphql/operation-name-plugin.ts";
import { partialAnswerPlugin } from "./graphql/partial-answer-plugin.ts";
import { buildSchema } from "./graphql/schema.ts";
import { subgraphSdl } from "./graphql/sdl.ts";
import { checkReadiness } from "./http/readiness.ts";
import { drainOnStop } from "./http/drain.ts";
import { createHttpServer } from "./http/server.ts";
import { childProbes } from "./health/child-probes.ts";
import { clusterProbes } from "./health/cluster-probes.ts";
import { HealthMonitor } from "./health/health-monitor.ts";
import { FlowPoller } from "./flow/flow-poller.ts";
import { ChildCalls } from "@stream-registry/federation";
import { IndexFollower } from "./discovery/index-follower.ts";
import { createLogger, type Logger } from "./logger.ts";
import { MigrationGuard } from "./migration-guard.ts";
import { builtInProviders } from "./providers/built-in.ts";
import { loadProviders } from "./providers/load-providers.ts";
import { ProviderRegistry } from "./providers/provider-registry.ts";
import { realizedHandlers } from "./reconciler/kinds.ts";
import { Reconciler } from "./reconciler/reconciler.ts";
import { Resync } from "./reconciler/resync.ts";
import { RegistryIdentity } from "./identity.ts";
import { checkKeysInUse, resolveKeyring } from "./secrets/keyring.ts";
import type { SelfDescription } from "./services/child-registry-service.ts";
import { ConnectGuard, logConnectAllow } from "./services/connect-guard.ts";
import { createServices } from "./services/services.ts";
import { schemaRegistryHandler } from "./schema-registry/rest/rest-handler.ts";
import { listenError } from "./operator-error.ts";
import { version } from "./version.ts";

export interface RunningRegistry extends AsyncDisposable {
  /** e.g. http://127.0.0.1:4000/graphql */
  url: string;
  port: number;
  db: Database;
  reconciler: Reconciler;
  /** The data-in-flight poller: tests run its rounds themselves (`flow.round`). */
  flow: FlowPoller;
  logger: Logger;
  /** Graceful stop: no new requests, in-flight ones drained, job leases released. */
  stop(): Promise<void>;
}

/** Starts one registry: database (migrated), providers, reconciler, HTTP server. */
export async function startRegistry(
  config: RegistryConfig,
  logger = createLogger(config.logLevel),
): Promise<RunningRegistry> {
  // Refused before the database is opened: PostgreSQL without keys to seal secrets with.
  if (config.databaseUrl) await resolveKeyring(config, logger);
  // Where a start's time goes (npm run bench:start): in ms since the process started.
  const openedAt = performance.now();
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  try {
    const migratedAt = performance.now();
    const { applied } = await migrate(db);
    const timing = { openMs: ms(migratedAt - openedAt), migrateMs: ms(performance.now() - migratedAt) };
    logger.info({ database: db.kind, location: db.location, applied, ...timing }, "database ready");
    // Where callers may make this registry connect; providers are told too (advertised brokers).
    const connect = new ConnectGuard(config.connectAllow);
    const providers = new ProviderRegistry(
      await loadProviders(config.providerModules, process.cwd(), builtInProviders(logger)),
      config.secretKeyNames,
      connect,
    );
    // After the data directory is locked (openDatabase): a generated key file is this process's.
    const { keyring, source } = await resolveKeyring(config, logger);
    await checkKeysInUse(db, keyring, logger);
    // Secrets still in clear (a database from before they were sealed, a key that became secret).
    const sealing = await sealClearClusterSecrets(db.prisma, { secrets: providers.isSecret, keyring });
    logger.info({ keys: source, kid: keyring.current.kid }, "secrets at rest are sealed with this key");
    if (sealing.sealed.length > 0) {
      logger.info({ clusters: sealing.sealed }, "sealed the secrets these clusters held in clear");
    }
    for (const { cluster, reason } of sealing.failed) {
      logger.error({ cluster, reason }, "secrets in clear could not be sealed");
    }
    // Streams' and bindings' too, and the stored copies of config maps (issue 19).
    const stored = await sealStoredSecrets(db.prisma, { secrets: providers.isSecret, keyring });
    if (stored.sealed.length > 0 || stored.redacted.changes + stored.redacted.documents > 0) {
      logger.info(
        { objects: stored.sealed, redacted: stored.redacted },
        "sealed the secrets these objects held in clear, and hid them in stored copies",
      );
    }
    for (const { object, reason } of stored.failed) {
      logger.error({ object, reason }, "secrets in clear could not be sealed");
    }
    checkClusterPresets(config.clusterPresets, providers);
    if (config.clusterPresets.file) {
      // Names and kinds only: the presets' config may hold secrets.
      const clusters = Object.fromEntries(
        [...config.clusterPresets.clusters].map(([name, preset]) => [
          name,
          preset.provider ?? "registry-only",
        ]),
      );
      logger.info({ file: config.clusterPresets.file, clusters }, "cluster presets loaded");
    }
    const identity = await RegistryIdentity.load(db.prisma, db.kind === "postgres", (error) =>
      logger.warn({ err: error }, "cannot re-read this registry's namespace; keeping the one known"),
    );
    const namespaced = {
      db,
      providers,
      keyring,
      // Read where it is used: DECLARE DEFAULT NAMESPACE changes it while the registry runs.
      get namespace() {
        return identity.path;
      },
    };
    // Its signing keys: the tokens it sends the registries of its tree (docs/security.md).
    const registryKeys = await RegistryKeys.load(
      db,
      keyring,
      () => identity.registryId,
      // A rotation realizes the link to the parent again: its registration carries the new keys.
      async () => {
        if (await writeTransaction(db.prisma, reregisterWithParent)) setImmediate(() => reconciler.wake());
      },
    );
    // What this registry tells its parent and children; its URL is known once it listens.
    let listeningUrl = "";
    const self: SelfDescription = {
      sdl: subgraphSdl(),
      version,
      url: () => config.publicUrl ?? listeningUrl,
      keys: () => registryKeys.publicKeys(),
      prove: (parent, purpose, digest) => registryKeys.proveRegistration(parent, purpose, digest),
    };
    // The reconcile kernel's kinds (reconciler/kinds.ts).
    const handlers = realizedHandlers({
      binding: namespaced,
      parentLink: { db, identity, self, logger, registryKeys },
      // Not a spread of `namespaced`, which would read its namespace once, before DECLARE DEFAULT
      // NAMESPACE: the connectors' ownership marker names the registry's namespace as it is now.
      connectors: {
        db,
        providers,
        keyring,
        get namespace() {
          return identity.path;
        },
        restart: config.reconciler.connectorRestart ?? DEFAULT_AUTO_RESTART,
      },
    });
    const reconciler = new Reconciler({ db }, handlers, config.reconciler, logger);
    // Aborted as the registry begins to stop: requests that wait (a parent's long poll) end.
    const stopping = new AbortController();
    const deps = Object.assign(namespaced, {
      // After the mutation's answer is written (the rest of a request is promise continuations,
      // which run before setImmediate): with PGlite, SQL runs on this event loop, and the reconcile
      // it starts would otherwise be paid for by the mutation's latency.
      wakeReconciler: () => void setImmediate(() => reconciler.wake()),
      stopping: stopping.signal,
    });
    // A token not found while migrations rebuild an emptied database is a 503, not a 401.
    const apiTokens = new ApiTokenVerifier(
      db,
      logger,
      () => identity.registryId,
      () => migrations.applying,
    );
    // Who this registry and its ancestors are, and its OIDC issuer: how principals are qualified.
    const lineage = () => identity.lineage(config.auth.oidc?.issuer);
    const authenticator = new Authenticator({
      mode: config.auth.mode,
      apiTokens,
      oidc: config.auth.oidc && new OidcVerifier(config.auth.oidc),
      registries: new RegistryTokenVerifier({
        db,
        registryId: () => identity.registryId,
        lineage,
        replays: new ReplayCache(),
        refreshParentKeys: parentKeysRefresher(db, registryKeys, logger),
      }),
    });
    if (config.auth.mode === "none") {
      logger.warn(
        "REGISTRY_AUTH=none: every request is anonymous, with every right; for local experiments only",
      );
    }
    // The first admin token is an admin of this registry's own namespace (scope ""). Made once the
    // first start serves, and again if the database is emptied under the running registry
    // (MigrationGuard).
    const bootstrapAdmin = () =>
      bootstrapAdminToken(
        db,
        config.auth,
        async (tx) => {
          await insertGrant(tx, FIRST_ADMIN_GRANT, { actor: "registry:bootstrap", scopePath: identity.path });
        },
        logger,
      );
    logConnectAllow(config.connectAllow, config.production, logger);
    // Data in flight, read in the background; GraphQL answers from its last reading.
    const flow = new FlowPoller(deps, config.flow, logger);
    const services = createServices(deps, {
      flow,
      connect,
      onTokenRevoked: () => apiTokens.forget(),
      healthIntervalMs: config.health.intervalMs,
      clusterPresets: config.clusterPresets,
      identity,
      oidcIssuer: config.auth.oidc?.issuer,
      self,
      enrollmentToken: config.enrollmentToken,
    });
    const schema = buildSchema(providers.isSecret);
    // Its own circuit breakers: its reads of a child that is down (each second) must not keep
    // the child unasked by clients for 10 s after it is back.
    // This registry's own calls to its children carry its own token: no user's.
    const ownCalls = (registryId: string) => registryKeys.headersFor(registryId);
    const index = new IndexFollower(
      db,
      new ChildCalls(services.children.refusal), // refused for a suspended child, as requests are
      schema,
      config.index,
      logger,
      ownCalls,
    );
    const health = new HealthMonitor(
      [clusterProbes(deps), childProbes(deps, ownCalls)],
      config.health,
      logger,
    );
    const resync = new Resync(deps, handlers, config.reconciler, logger);
    const migrations = new MigrationGuard(db, logger, async () => {
      const made = await bootstrapAdmin();
      if (made) process.stdout.write(adminTokenNotice(made, self.url()));
    });

    const apollo = new ApolloServer<GraphQLContext>({
      schema,
      formatError: createErrorFormatter(config.production),
      includeStacktraceInErrorResponses: false,
      // Compact JSON: Apollo's default indents every response, which makes a page of streams
      // about half whitespace for the server to write and the client to read.
      stringifyResult: (result) => JSON.stringify(result),
      // Apollo's own handler would stop it and re-raise the signal, killing the process before
      // main.ts drains requests, gives back job leases and closes the database.
      stopOnTerminationSignals: false,
      // Introspection, _service and "Did you mean" are decided per request in production, for
      // admins and the parent only (schemaVisibilityPlugin); Apollo's switches are for everyone.
      introspection: true,
      validationRules: [knownOperationTypesRule, ...staticLimitRules(config.queryLimits)],
      plugins: [
        schemaVisibilityPlugin(config.production),
        inputTextPlugin(),
        queryBudgetPlugin(config.queryLimits),
        // Before partialAnswerPlugin and errorLoggingPlugin: a refused query's answer is the refusal.
        rateLimitPlugin(),
        // Before errorLoggingPlugin, which puts the request id on every fault it sends.
        partialAnswerPlugin(),
        errorLoggingPlugin((error, requestId) => migrations.notice(error, requestId)),
        operationNamePlugin(),
      ],
      logger: {
        debug: (message) => logger.debug(message),
        info: (message) => logger.info(message),
        warn: (message) => logger.warn(message),
        error: (message) => logger.error(message),
      },
    });
    await apollo.start();
    // One per process: each principal's spending over its window (docs/security.md "Rate limits").
    const rateLimits = new RateLimits(config.rateLimit);
    const server = createHttpServer({
      apollo,
      onFault: (error, requestId) => migrations.notice(error, requestId),
      maxTokens: config.queryLimits.maxTokens,
      passThrough: createPassThrough(schema, config.queryLimits),
      logger,
      authenticate: (authorization) => authenticator.authenticate(authorization),
      createContext: ({ requestId, principal, hops, budgetEndsAt, remoteAddress, clientGone }) => ({
        requestId,
        principal,
        hops,
        budgetEndsAt,
        clientGone,
        namespace: identity.path,
        services,
        registryKeys,
        loaders: createLoaders(db.prisma),
        logger,
        requestLog: {},
        partial: [],
        rateLimit: rateLimits.forRequest({ principal, remoteAddress, hops }),
      }),
      schemaRegistry: schemaRegistryHandler({
        registry: services.schemas,
        authenticate: (authorization) => authenticator.authenticateSchemaClient(authorization),
        accessOf: (principal) => services.grants.accessOf(principal, identity.path),
        rateOf: (principal, remoteAddress) => rateLimits.forRequest({ principal, remoteAddress, hops: 0 }),
        logger,
        onFault: (error, requestId) => migrations.notice(error, requestId),
      }),
      readiness: (requestId) =>
        checkReadiness(
          { db, reconciler, reconcilerEnabled: config.reconciler.enabled, migrations, logger },
          requestId,
        ),
    });
    // On stop: no request taken on a kept-alive connection, none cut (http/drain.ts).
    const drain = drainOnStop(server);
    await new Promise<void>((resolve, reject) => {
      server.once("error", (error) => reject(listenError(error, config.host, config.port)));
      server.listen(config.port, config.host, resolve);
    });
    const { port } = server.address() as AddressInfo;
    const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
    const url = `http://${host}:${port}/graphql`;
    listeningUrl = url;
    reconciler.start();
    resync.start();
    health.start();
    flow.start();
    index.start();
    identity.start();
    // Only once it serves: a start that fails before (a port in use) leaves no token that no one
    // saw, which would make later starts print none and ignore REGISTRY_ADMIN_TOKEN.
    const firstAdminToken = await bootstrapAdmin();
    logger.info(
      {
        url,
        namespace: identity.path,
        providers: providers.kinds(),
        auth: config.auth.mode,
        startedMs: ms(performance.now()),
      },
      "registry started",
    );
    // On stdout, not in the JSON log: log collectors keep what they are given.
    if (firstAdminToken) process.stdout.write(adminTokenNotice(firstAdminToken, url));

    let stopped: Promise<void> | undefined;
    const stop = () =>
      (stopped ??= (async () => {
        logger.info("registry stopping");
        stopping.abort();
        await withDeadline(() => drain(), { timeoutMs: config.shutdownTimeoutMs }).catch((error: unknown) => {
          logger.warn({ err: error }, "requests still running at shutdown; closing their connections");
          server.closeAllConnections();
        });
        await apollo.stop();
        await Promise.all([
          identity.stop(),
          health.stop(config.shutdownTimeoutMs),
          flow.stop(config.shutdownTimeoutMs),
          index.stop(),
          resync.stop(config.shutdownTimeoutMs),
          reconciler.stop(config.shutdownTimeoutMs),
        ]);
        await providers.close();
        await db.close();
        logger.info("registry stopped");
      })());
    return { url, port, db, reconciler, flow, logger, stop, [Symbol.asyncDispose]: stop };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

const ms = (value: number) => Math.round(value);
