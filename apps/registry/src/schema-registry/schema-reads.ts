import { textProblem, type RegisteredSchema, type SubjectVersion } from "@stream-registry/core";
import { schemaRefused, type VersionSelector } from "@stream-registry/provider-api";
import {
  findReferrers,
  findSchemaById,
  listSchemaUsages,
  listSubjects,
  listSubjectVersions,
  type Db,
  type SubjectVersionKey,
} from "@stream-registry/store";
import { refuse } from "./refusals.ts";
import type { SchemaRegistryDeps } from "./schema-deps.ts";
import { checkSubject } from "./schema-input.ts";

/** The versions of `subject` a read sees: live ones, or all with `includeDeleted`; 40401 when none. */
export async function visibleVersions(
  db: Db,
  subject: string,
  includeDeleted: boolean,
): Promise<SubjectVersion[]> {
  checkSubject(subject);
  const versions = (await listSubjectVersions(db, subject)).filter((v) => includeDeleted || !v.deleted);
  if (versions.length === 0) throw refuse.subjectNotFound(subject);
  return versions;
}

/** One of `versions` by number or the latest; 40402 when it is not among them. */
export function pickVersion(subject: string, versions: readonly SubjectVersion[], selector: VersionSelector) {
  const found = selector === "latest" ? versions.at(-1) : versions.find((v) => v.version === selector);
  if (!found) throw refuse.versionNotFound(subject, selector);
  return found;
}

/** Subjects, their versions, and schemas by id: Confluent's GET endpoints. */
export class SchemaReads {
  constructor(private readonly deps: SchemaRegistryDeps) {}

  private get db(): Db {
    return this.deps.db.prisma;
  }

  async subjects(options: { includeDeleted?: boolean; prefix?: string } = {}): Promise<string[]> {
    const problem = options.prefix === undefined ? undefined : textProblem(options.prefix);
    if (problem) throw schemaRefused("INVALID_INPUT", `Query parameter "subjectPrefix" ${problem}`);
    return listSubjects(this.db, { includeDeleted: options.includeDeleted ?? false, prefix: options.prefix });
  }

  async versions(subject: string, includeDeleted = false): Promise<number[]> {
    return (await visibleVersions(this.db, subject, includeDeleted)).map((v) => v.version);
  }

  async version(subject: string, selector: VersionSelector, includeDeleted = false): Promise<SubjectVersion> {
    return pickVersion(subject, await visibleVersions(this.db, subject, includeDeleted), selector);
  }

  async schema(id: number): Promise<RegisteredSchema> {
    const found = await findSchemaById(this.db, id);
    if (!found) throw refuse.schemaNotFound(`Schema ${id} not found`);
    return found;
  }

  /** Where schema `id` is registered (40403 when there is no such schema). */
  async usages(id: number, includeDeleted = false): Promise<SubjectVersionKey[]> {
    await this.schema(id);
    return listSchemaUsages(this.db, id, includeDeleted);
  }

  /** The ids of the live schemas that reference a version of `subject`. */
  async referencedBy(subject: string, selector: VersionSelector): Promise<number[]> {
    const version = await this.version(subject, selector);
    const referrers = await findReferrers(this.db, { subject, version: version.version }, false);
    return [...new Set(referrers.map((r) => r.id))];
  }
}
