import type { Binding, ConfigMaps } from "@stream-registry/core";
import { Prisma } from "./generated/prisma/client.ts";

/**
 * The columns a Binding is made of: all but the create journal, which only the reconciler reads,
 * and which reads of many bindings need not fetch.
 */
export const BINDING_COLUMNS = {
  id: true,
  streamId: true,
  clusterId: true,
  isDefault: true,
  config: true,
  producerConfig: true,
  consumerConfig: true,
  generation: true,
  observedGeneration: true,
  phase: true,
  message: true,
  statusUpdatedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.BindingSelect;

/** BINDING_COLUMNS in SQL, for raw statements (`RETURNING`), in Prisma's field names. */
export const BINDING_SQL_COLUMNS = Prisma.sql`
  id::text AS id, stream_id::text AS "streamId", cluster_id::text AS "clusterId", is_default AS "isDefault",
  config, producer_config AS "producerConfig", consumer_config AS "consumerConfig", generation,
  observed_generation AS "observedGeneration", phase::text AS phase, message,
  status_updated_at AS "statusUpdatedAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

export type BindingRow = Prisma.BindingGetPayload<{ select: typeof BINDING_COLUMNS }>;

/** The one place a binding row becomes a Binding: its overrides were checked before they were stored. */
export function toBinding(row: BindingRow): Binding {
  return {
    id: row.id,
    streamId: row.streamId,
    clusterId: row.clusterId,
    isDefault: row.isDefault,
    config: row.config as ConfigMaps,
    producerConfig: row.producerConfig as ConfigMaps,
    consumerConfig: row.consumerConfig as ConfigMaps,
    generation: row.generation,
    observedGeneration: row.observedGeneration,
    phase: row.phase,
    message: row.message,
    statusUpdatedAt: row.statusUpdatedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
