-- At most one default binding per stream, held by the database: a binding's create decides its
-- default in one statement, and two first bindings committing at once must not both be it.
CREATE UNIQUE INDEX "binding_one_default_per_stream" ON "binding" ("stream_id") WHERE "is_default";
