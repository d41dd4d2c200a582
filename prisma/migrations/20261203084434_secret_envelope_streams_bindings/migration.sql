-- Secrets at rest for streams and bindings too (issue 19): their config maps' secrets are sealed
-- in an envelope of their own, as a cluster's are. Rows written before are sealed by the registry
-- at start-up (store/src/secret-sealing.ts).
ALTER TABLE "secret_envelope" ADD COLUMN     "binding_id" UUID,
ADD COLUMN     "stream_id" UUID;

-- One owner column per kind of object; exactly one is set.
ALTER TABLE "secret_envelope" DROP CONSTRAINT "secret_envelope_one_owner";
ALTER TABLE "secret_envelope" ADD CONSTRAINT "secret_envelope_one_owner"
  CHECK (num_nonnulls("cluster_id", "stream_id", "binding_id") = 1);

-- CreateIndex
CREATE UNIQUE INDEX "secret_envelope_stream_id_key" ON "secret_envelope"("stream_id");

-- CreateIndex
CREATE UNIQUE INDEX "secret_envelope_binding_id_key" ON "secret_envelope"("binding_id");

-- AddForeignKey
ALTER TABLE "secret_envelope" ADD CONSTRAINT "secret_envelope_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "stream"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "secret_envelope" ADD CONSTRAINT "secret_envelope_binding_id_fkey" FOREIGN KEY ("binding_id") REFERENCES "binding"("id") ON DELETE CASCADE ON UPDATE CASCADE;
