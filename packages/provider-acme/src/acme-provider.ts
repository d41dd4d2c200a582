import type { ConfigMaps } from "@stream-registry/core";
import {
  configRejected,
  type BindingObservation,
  type BindingRequest,
  type ClusterTarget,
  type OperationContext,
  type StreamProvider,
} from "@stream-registry/provider-api";
import { createKafkaProvider, type KafkaProviderOptions } from "@stream-registry/provider-kafka";
import { ACME_MAP, acmeConfigMap, acmeLabels, acmeStreamIssues } from "./acme-config-map.ts";

/**
 * Acme's provider: the generic Kafka provider, extended by composition. It adds the required
 * "acme.kafka" map, checks it before Kafka sees a stream, and labels observations with the
 * stream's owner, team and cost center (never its secret webhook: observations are shown as they
 * are); everything else is the Kafka provider's.
 */
export function createAcmeProvider(options: KafkaProviderOptions = {}) {
  const kafka = createKafkaProvider(options);
  const infra = kafka.infrastructure;
  const labelled = async (
    request: BindingRequest,
    realize: Promise<BindingObservation | void>,
  ): Promise<BindingObservation> => {
    const observation = (await realize) ?? {};
    const acme = acmeLabels(request.configMaps[ACME_MAP]);
    return { ...observation, details: { ...observation.details, acme } };
  };
  const provider = {
    kind: "acme",
    description: 'Acme Kafka: the generic Kafka provider plus the required "acme.kafka" ownership map',
    configMaps: [...kafka.configMaps, acmeConfigMap],
    schemas: kafka.schemas,
    infrastructure: {
      ...infra,
      async validateStream(
        streamName: string,
        configMaps: ConfigMaps,
        context: OperationContext & { cluster?: ClusterTarget },
      ) {
        context.signal.throwIfAborted();
        const issues = acmeStreamIssues(configMaps);
        if (issues.length > 0) {
          throw configRejected(
            `stream "${streamName}" breaks Acme's rules: ${issues.map((i) => i.message).join("; ")}`,
            issues,
          );
        }
        await infra.validateStream(streamName, configMaps, context);
      },
      createStreamBinding: (request: BindingRequest, context: OperationContext) =>
        labelled(request, infra.createStreamBinding(request, context)),
      // Kafka's batch too, labelled the same way: a wrapper that left it out would realize through
      // Kafka's unlabelled batch.
      async createStreamBindings(requests: readonly BindingRequest[], context: OperationContext) {
        const outcomes = await infra.createStreamBindings(requests, context);
        return Promise.all(
          outcomes.map(async (outcome, i) =>
            outcome.ok
              ? { ok: true as const, value: await labelled(requests[i]!, Promise.resolve(outcome.value)) }
              : outcome,
          ),
        );
      },
      updateStreamBinding: (request: BindingRequest, context: OperationContext) =>
        labelled(request, infra.updateStreamBinding(request, context)),
    },
    registryWillStart: kafka.registryWillStart,
    close: () => kafka.close(),
  };
  return provider satisfies StreamProvider;
}
