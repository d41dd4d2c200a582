// What store exports: core's types and functions over opaque handles (db.ts). Modules that share
// SQL fragments (Prisma.Sql) with each other list what they export, so the fragments stay inside.
export * from "./api-tokens.ts";
export {
  LIVE_PHASES,
  writeBindingPhase,
  type PhaseTarget,
  type PhaseTransition,
  type PhaseWriteFields,
} from "./binding-phase.ts";
export * from "./binding-reads.ts";
export * from "./binding-status.ts";
export * from "./binding-writes.ts";
export * from "./bindings.ts";
export * from "./catalog.ts";
export * from "./change-log-reads.ts";
export { type ChangeRecord, recordChange } from "./change-log.ts";
export * from "./child-admin.ts";
export * from "./child-registries.ts";
export * from "./cluster-health.ts";
export { toCluster } from "./cluster-row.ts";
export {
  type ClusterWriter,
  type ClusterSpec,
  findCluster,
  findClustersByIds,
  findClustersByNames,
  findClusterWithBindingCount,
  findClusterWithSomeStreams,
  createCluster,
  updateCluster,
  deleteCluster,
  clustersDueForProbe,
  openCluster,
  type SealingReport,
  sealClearClusterSecrets,
} from "./clusters.ts";
export { type ConfigTriple, type SealingPolicy, sealSets, sealUpdate, openSets } from "./config-sealing.ts";
export * from "./data-dir-lock.ts";
export * from "./database.ts";
export * from "./db-errors.ts";
export * from "./db.ts";
export * from "./discovery-index.ts";
export * from "./discovery-index-reads.ts";
export * from "./grants.ts";
export {
  type LeasedJob,
  enqueueJob,
  leaseJobs,
  extendLease,
  type JobLease,
  completeJob,
  retryJob,
  releaseJob,
  releaseAllLeases,
} from "./job-queue.ts";
export * from "./migrate.ts";
export * from "./migration-errors.ts";
export * from "./observations.ts";
export * from "./parent-link.ts";
export * from "./registration-proofs.ts";
export * from "./registry-keys.ts";
export * from "./registry-settings.ts";
export * from "./resource-journal.ts";
export {
  type ObservationReport,
  saveResourceObservation,
  deleteResourceObservation,
} from "./resource-observations.ts";
export { type StatusFields, writeResourcePhase } from "./resource-phase.ts";
export * from "./resource-status.ts";
export * from "./resource-table.ts";
export { type LockMode, lockClusterByName, lockStreamByName, lockStream } from "./row-locks.ts";
export * from "./schemas/index.ts";
export * from "./secret-envelopes.ts";
export * from "./secret-rotation.ts";
export * from "./secret-sealing.ts";
export { toStream } from "./stream-row.ts";
export {
  findStreamAndCluster,
  type StreamConfigs,
  type StreamWriter,
  findStream,
  findStreamById,
  findStreamsByIds,
  findStreamsByNames,
  findStreamWithBindings,
  createStream,
  updateStream,
  deleteStream,
  markStreamDeleting,
  removeStreamIfDone,
} from "./streams.ts";
export * from "./transaction.ts";
export { type OwnVisibility, ownVisibility, visibleStreamNames } from "./visibility.ts";
export * from "./stream-subjects.ts";
export { CONNECTOR_RESOURCES } from "./connector-table.ts";
export * from "./connector-reads.ts";
export * from "./connector-writes.ts";
