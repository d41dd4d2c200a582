-- CreateTable
CREATE TABLE "stream_subject" (
    "stream_id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "type_name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "stream_subject_pkey" PRIMARY KEY ("stream_id","subject")
);

-- AddForeignKey
ALTER TABLE "stream_subject" ADD CONSTRAINT "stream_subject_stream_id_fkey" FOREIGN KEY ("stream_id") REFERENCES "stream"("id") ON DELETE CASCADE ON UPDATE CASCADE;
