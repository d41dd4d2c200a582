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
   * Checks the config maps that loaded providers own (e.g. "apache.kafka") wherever they appear.
   * Maps no provider owns are company metadata and pass as they are.
   */
  checkOwnedMaps(maps: ConfigMaps, scope: ConfigScope, field: string[]): UserError[] {
    const errors: UserError[] = [];
    for (const provider of this.providers.values()) {
      for (const definition of provider.configMaps) {
        const map = maps[definition.name];
        if (map === undefined) continue;
        for (const issue of definition.validate?.(map, scope) ?? []) {
          errors.push(
            userError(ErrorCode.INVALID_INPUT, [...field, definition.name, ...issue.field], issue.message),
          );
        }
      }
    }
    return errors;
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

  async validateCluster(provider: StreamProvider, name: string, config: ConfigMaps, field: string[]) {
    await this.callValidation(provider, field, async (signal) => {
      await provider.infrastructure.validateCluster(name, config, { signal });
    });
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

  /**
   * A provider's refusal becomes user errors on `field`; an outage, a timeout or any other
   * exception is a fault (PROVIDER_UNAVAILABLE).
   */
  private async callValidation(
    provider: StreamProvider,
    field: string[],
    call: (signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    const prefix = `provider "${provider.kind}"`;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`did not answer within ${VALIDATION_TIMEOUT_MS / 1000}s`));
      }, VALIDATION_TIMEOUT_MS);
    });
    try {
      await Promise.race([call(controller.signal), timeout]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!(error instanceof ProviderError) || error.retriable) {
        throw new RegistryError(
          ErrorCode.PROVIDER_UNAVAILABLE,
          `${prefix} is unavailable: ${message}`,
          field,
        );
      }
      if (error.issues.length === 0)
        throw new RegistryError(ErrorCode.PROVIDER_REJECTED, `${prefix}: ${message}`, field);
      throw new UserErrors(
        error.issues.map((issue) =>
          userError(ErrorCode.PROVIDER_REJECTED, [...field, ...issue.field], `${prefix}: ${issue.message}`),
        ),
      );
    } finally {
      clearTimeout(timer);
    }
  }
}
