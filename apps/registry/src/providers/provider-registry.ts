import {
  DeadlineExceeded,
  ErrorCode,
  declaredSecretKeys,
  isSecretKey,
  RegistryError,
  userError,
  withDeadline,
  type ConfigMaps,
  type SecretKeyRule,
  type UserError,
} from "@stream-registry/core";
import {
  isConnectNotAllowedError,
  isPermanentProviderError,
  isProviderError,
  UNRESTRICTED_CONNECT,
  type ClusterProbe,
  type ClusterTarget,
  type ConfigScope,
  type ConnectPolicy,
  type StreamProvider,
} from "@stream-registry/provider-api";
import { UserErrors } from "../services/user-errors.ts";

/** How long a mutation waits for a provider's validation before reporting it unavailable. */
const VALIDATION_TIMEOUT_MS = 10_000;

/** The loaded providers, by kind, and the validation that goes through them. */
export class ProviderRegistry {
  /** Secret keys the loaded providers declare, by config map. */
  private readonly providerSecrets = new Map<string, Set<string>>();
  /** Keys an admin declares secret (REGISTRY_SECRET_KEY_NAMES), in any map. */
  private readonly adminSecret: (key: string) => boolean;

  constructor(
    private readonly providers: ReadonlyMap<string, StreamProvider>,
    secretKeyNames: readonly string[] = [],
    /** Where providers may connect (REGISTRY_CONNECT_ALLOW), given to each before any call. */
    connect: ConnectPolicy = UNRESTRICTED_CONNECT,
  ) {
    for (const provider of new Set(providers.values())) provider.registryWillStart?.({ connect });
    this.adminSecret = declaredSecretKeys(secretKeyNames);
    for (const definition of [...providers.values()].flatMap((p) => p.configMaps)) {
      const keys = this.providerSecrets.get(definition.name) ?? new Set<string>();
      for (const key of definition.secretKeys ?? []) keys.add(key);
      this.providerSecrets.set(definition.name, keys);
    }
  }

  /**
   * Which keys are secret: core's rule, what loaded providers declare for the maps they own, and
   * what the admin declares. Everything shown, sealed, logged or filtered goes through it (a bound
   * method, to pass around), with core's `isSecret` adding the values secret by their shape.
   */
  readonly isSecret: SecretKeyRule = (map, key) =>
    isSecretKey(key) || (this.providerSecrets.get(map)?.has(key) ?? false) || this.adminSecret(key);

  kinds(): string[] {
    return [...this.providers.keys()].sort();
  }

  get(kind: string): StreamProvider | undefined {
    return this.providers.get(kind);
  }

  /** The provider of `kind`, or an INVALID_INPUT error on `field` listing the loaded kinds. */
  require(kind: string, field: string[]): StreamProvider {
    const provider = this.providers.get(kind);
    if (!provider) {
      throw new RegistryError(
        ErrorCode.INVALID_INPUT,
        `unknown provider kind "${kind}"; loaded providers: ${this.kinds().join(", ")}`,
        field,
      );
    }
    return provider;
  }

  /**
   * Checks the config maps that loaded providers own (e.g. "apache.kafka") wherever they appear.
   * Maps no provider owns are company metadata and pass as they are.
   */
  checkOwnedMaps(maps: ConfigMaps, scope: ConfigScope, field: string[]): UserError[] {
    const errors = new Map<string, UserError>();
    // Providers that extend another by composition share its definitions: each runs once.
    const definitions = new Set([...this.providers.values()].flatMap((p) => p.configMaps));
    for (const definition of definitions) {
      const map = maps[definition.name];
      if (map === undefined) continue;
      for (const issue of definition.validate?.(map, scope) ?? []) {
        const error = userError(
          ErrorCode.INVALID_INPUT,
          [...field, definition.name, ...issue.field],
          issue.message,
        );
        errors.set(JSON.stringify([error.field, error.message]), error);
      }
    }
    return [...errors.values()];
  }

  /** The maps `provider` requires in `scope` that `maps` lacks. */
  checkRequiredMaps(
    provider: StreamProvider,
    maps: ConfigMaps,
    scope: ConfigScope,
    field: string[],
  ): UserError[] {
    return provider.configMaps
      .filter((definition) => definition.requiredIn?.includes(scope) && maps[definition.name] === undefined)
      .map((definition) =>
        userError(
          ErrorCode.INVALID_INPUT,
          [...field, definition.name],
          `config map "${definition.name}" is required by provider "${provider.kind}" (${definition.description})`,
        ),
      );
  }

  /** The provider's verdict on a cluster's config; a provider that reached the cluster returns its probe. */
  async validateCluster(
    provider: StreamProvider,
    name: string,
    config: ConfigMaps,
    field: string[],
  ): Promise<ClusterProbe | undefined> {
    return this.callValidation(
      provider,
      field,
      async (signal) =>
        (await provider.infrastructure.validateCluster(name, config, { signal })) ?? undefined,
    );
  }

  /**
   * The provider's verdict on a stream's effective maps on `cluster`. If the cluster cannot be
   * reached (a retriable error or no answer in time), the checks that need it are left to the
   * reconciler: the desired state is accepted ("deferred"), and realizing it reports the outage as
   * PENDING with its reason, or a misfit as FAILED, once the cluster answers. Declarative writes
   * must not depend on the platform being up.
   */
  async validateStream(
    provider: StreamProvider,
    streamName: string,
    config: ConfigMaps,
    cluster: ClusterTarget,
    field: string[],
  ): Promise<"checked" | "deferred"> {
    try {
      await this.callValidation(provider, field, (signal) =>
        provider.infrastructure.validateStream(streamName, config, { signal, cluster }),
      );
      return "checked";
    } catch (error) {
      if (error instanceof ProviderUnavailable && error.outage) return "deferred";
      throw error;
    }
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.providers.values()].map(async (p) => p.close?.()));
  }

  /**
   * A provider's refusal becomes user errors on `field`; an outage, a timeout or any other
   * exception is a fault (PROVIDER_UNAVAILABLE, as a ProviderUnavailable).
   */
  async callValidation<T>(
    provider: StreamProvider,
    field: string[],
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const prefix = `provider "${provider.kind}"`;
    try {
      return await withDeadline(call, { timeoutMs: VALIDATION_TIMEOUT_MS });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // An address the cluster led to that the allow-list refuses: the input is to be corrected.
      if (isConnectNotAllowedError(error)) {
        throw new UserErrors(
          error.issues.map((issue) =>
            userError(ErrorCode.INVALID_INPUT, [...field, ...issue.field], issue.message),
          ),
        );
      }
      if (!isPermanentProviderError(error)) {
        // A bug in a provider (a plain exception) is not an outage: it is never deferred.
        const outage = isProviderError(error) || error instanceof DeadlineExceeded;
        throw new ProviderUnavailable(`${prefix} is unavailable: ${message}`, field, outage);
      }
      if (error.issues.length === 0)
        throw new RegistryError(ErrorCode.PROVIDER_REJECTED, `${prefix}: ${message}`, field);
      throw new UserErrors(
        error.issues.map((issue) =>
          userError(ErrorCode.PROVIDER_REJECTED, [...field, ...issue.field], `${prefix}: ${issue.message}`),
        ),
      );
    }
  }
}

/** PROVIDER_UNAVAILABLE; `outage` when the platform could not be reached (rather than a provider bug). */
class ProviderUnavailable extends RegistryError {
  constructor(
    message: string,
    field: string[],
    readonly outage: boolean,
  ) {
    super(ErrorCode.PROVIDER_UNAVAILABLE, message, field);
  }
}
