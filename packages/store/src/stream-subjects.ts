import type { Db } from "./db.ts";
import { open } from "./open-db.ts";

/** A subject holding one of a stream's schemas: its key's, or a type's. */
export interface StreamSubject {
  subject: string;
  role: "key" | "type";
  /** The type's name; "" for the key. */
  typeName: string;
}

/** Notes that a stream's key or type schema is registered under `subject` (once; again is a no-op). */
export async function recordStreamSubject(db: Db, streamId: string, entry: StreamSubject): Promise<void> {
  await open(db).streamSubject.upsert({
    where: { streamId_subject: { streamId, subject: entry.subject } },
    create: { streamId, ...entry },
    update: { role: entry.role, typeName: entry.typeName },
  });
}

/** A stream's subjects: the key first, then types in the order they were first registered. */
export async function listStreamSubjects(db: Db, streamId: string): Promise<StreamSubject[]> {
  const rows = await open(db).streamSubject.findMany({
    where: { streamId },
    orderBy: [{ createdAt: "asc" }, { subject: "asc" }],
  });
  return rows
    .map(({ subject, role, typeName }) => ({
      subject,
      role: role === "key" ? ("key" as const) : ("type" as const),
      typeName,
    }))
    .sort((a, b) => (a.role === b.role ? 0 : a.role === "key" ? -1 : 1));
}

/** Forgets a subject of any stream (it was deleted for good from its registry). */
export async function forgetSubject(db: Db, subject: string): Promise<void> {
  await open(db).streamSubject.deleteMany({ where: { subject } });
}
