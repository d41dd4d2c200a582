-- Secrets at rest (issue 11): the sealed secret config values of one object, today a cluster. Its
-- config keeps, in place of each secret, the placeholder with the value's fingerprint; this row
-- holds the object's data key wrapped by the key-encryption key `kid` and each value encrypted
-- under that data key (AES-256-GCM). Rows written before this table existed are sealed by the
-- registry at start-up (store/src/secret-envelopes.ts, sealClearClusterSecrets).
CREATE TABLE "secret_envelope" (
    "id" UUID NOT NULL,
    "cluster_id" UUID,
    "kid" TEXT NOT NULL,
    "wrapped_key" JSONB NOT NULL,
    "sealed" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "secret_envelope_pkey" PRIMARY KEY ("id"),
    -- One owner column per kind of object; exactly one is set.
    CONSTRAINT "secret_envelope_one_owner" CHECK (num_nonnulls("cluster_id") = 1)
);

-- CreateIndex
CREATE UNIQUE INDEX "secret_envelope_cluster_id_key" ON "secret_envelope"("cluster_id");

-- Which key ids are still in use (npm run secrets:rotate).
CREATE INDEX "secret_envelope_kid" ON "secret_envelope"("kid");

-- AddForeignKey
ALTER TABLE "secret_envelope" ADD CONSTRAINT "secret_envelope_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
