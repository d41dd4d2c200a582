import type { Column } from "../output/table.ts";
import { SCHEMA_COLUMNS } from "./schemas.ts";

interface Subject {
  subject: string;
  typeName: string | null;
  versions: { version: number; id: number; schemaType: string }[];
}

/** A stream's schema subjects as DESCRIBE STREAM reads them. */
export interface StreamSubjects {
  keySchema: Subject | null;
  typeSchemas: Subject[] | null;
}

export const SUBJECTS_SELECTION = `keySchema { subject typeName versions { version id schemaType } }
  typeSchemas { subject typeName versions { version id schemaType } }`;

const COLUMNS: Column[] = [
  { key: "type", header: "Type" },
  ...SCHEMA_COLUMNS,
  { key: "format", header: "Format" },
];

/** One row per live version: the key's first (Type "(key)"), then each type's, oldest first. */
export function subjectsTable(stream: Partial<StreamSubjects>): {
  columns: Column[];
  rows: Record<string, unknown>[];
} {
  const subjects = [...(stream.keySchema ? [stream.keySchema] : []), ...(stream.typeSchemas ?? [])];
  const rows = subjects.flatMap((s) =>
    s.versions.map(({ version, id, schemaType }) => ({
      type: s.typeName ?? "(key)",
      subject: s.subject,
      version,
      id,
      format: schemaType,
    })),
  );
  return { columns: COLUMNS, rows };
}
