import type { ConfigMaps, Stream } from "@stream-registry/core";
import { Prisma, type Stream as StreamRow } from "./generated/prisma/client.ts";

// A stream row as store reads it, alone or joined beside another table's (see cluster-row.ts).

/** The one place a stream row becomes a Stream: its config maps were checked before they were stored. */
export function toStream(row: StreamRow): Stream {
  return {
    ...row,
    config: row.config as ConfigMaps,
    producerConfig: row.producerConfig as ConfigMaps,
    consumerConfig: row.consumerConfig as ConfigMaps,
  };
}

/** A stream's columns as a join reads them beside another table's (`s`), prefixed "stream". */
export const JOINED_STREAM_COLUMNS = Prisma.sql`
  s.id::text AS "streamId", s.name AS "streamName", s.config AS "streamConfig",
  s.producer_config AS "streamProducerConfig", s.consumer_config AS "streamConsumerConfig",
  s.generation AS "streamGeneration", s.deleting AS "streamDeleting", s.created_at AS "streamCreatedAt",
  s.updated_at AS "streamUpdatedAt"`;

export interface JoinedStreamRow {
  streamId: string;
  streamName: string;
  streamConfig: Prisma.JsonValue;
  streamProducerConfig: Prisma.JsonValue;
  streamConsumerConfig: Prisma.JsonValue;
  streamGeneration: number;
  streamDeleting: boolean;
  streamCreatedAt: Date;
  streamUpdatedAt: Date;
}

export function toJoinedStream(row: JoinedStreamRow): Stream {
  return toStream({
    id: row.streamId,
    name: row.streamName,
    config: row.streamConfig,
    producerConfig: row.streamProducerConfig,
    consumerConfig: row.streamConsumerConfig,
    generation: row.streamGeneration,
    deleting: row.streamDeleting,
    createdAt: row.streamCreatedAt,
    updatedAt: row.streamUpdatedAt,
  });
}
