import { ErrorCode, RegistryError, userError, type ConfigMaps, type UserError } from "@stream-registry/core";
import {
  ProviderError,
  type ClusterTarget,
  type ConfigScope,
  type StreamProvider,
} from "@stream-registry/provider-api";
import { UserErrors } from "../services/user-errors.ts";

/** How long a mutation waits for a provider's validation before reporting it unavailable. */
const VALIDATION_TIMEOUT_MS = 10_000;

/** The loaded providers, by kind, and the validation that goes through them. */
export class ProviderRegistry {
  constructor(private readonly providers: ReadonlyMap<string, StreamProvider>) {}

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
   * Checks the config maps that loaded providers own (e.g. "apache.kafka") wherever they appear,
   * and the maps `required` requires in this scope. Maps no provider owns are company metadata
   * and pass as they are.
   */
  checkOwnedMaps(
    maps: ConfigMaps,
    scope: ConfigScope,
    field: string[],
    required?: StreamProvider,
  ): UserError[] {
    const errors: UserError[] = [];
    for (const provider of this.providers.values()) {
      for (const definition of provider.configMaps) {
        const map = maps[definition.name];
        if (map === undefined) {
          if (provider === required && definition.requiredIn?.includes(scope)) {
            errors.push(
              userError(
                ErrorCode.INVALID_INPUT,
                [...field, definition.name],
                `config map "${definition.name}" is required by provider "${provider.kind}" (${definition.description})`,
              ),
            );
          }
          continue;
        }
        for (const issue of definition.validate?.(map, scope) ?? []) {
          errors.push(
            userError(ErrorCode.INVALID_INPUT, [...field, definition.name, ...issue.field], issue.message),
          );
        }
      }
    }
    return errors;
  }

  async validateCluster(provider: StreamProvider, name: string, config: ConfigMaps, field: string[]) {
    await this.callValidation(provider, field, (signal) =>
      provider.infrastructure.validateCluster(name, config, { signal }),
    );
  }

  async validateStream(
    provider: StreamProvider,
    streamName: string,
    config: ConfigMaps,
    cluster: ClusterTarget,
    field: string[],
  ) {
    await this.callValidation(provider, field, (signal) =>
      provider.infrastructure.validateStream(streamName, config, { signal, cluster }),
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.providers.values()].map(async (p) => p.close?.()));
  }

  /** Maps a provider's refusal to user errors on `field`; other exceptions stay faults. */
  private async callValidation(
    provider: StreamProvider,
    field: string[],
    call: (signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    try {
      await call(AbortSignal.timeout(VALIDATION_TIMEOUT_MS));
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const code = error.retriable ? ErrorCode.PROVIDER_UNAVAILABLE : ErrorCode.PROVIDER_REJECTED;
      const prefix = `provider "${provider.kind}"`;
      if (error.issues.length === 0) throw new RegistryError(code, `${prefix}: ${error.message}`, field);
      throw new UserErrors(
        error.issues.map((issue) =>
          userError(code, [...field, ...issue.field], `${prefix}: ${issue.message}`),
        ),
      );
    }
  }
}
