import {
  ErrorCode,
  quote,
  RegistryError,
  type Access,
  type CompatibilityLevel,
  type RegisteredSchema,
} from "@stream-registry/core";
import { isSchemaManagerError, type CompatibilityResult } from "@stream-registry/provider-api";
import { listStreamSubjects } from "@stream-registry/store";
import type { Caller } from "../services/deps.ts";
import { parseCandidate, schemaInputOf, type CandidateInput } from "./schema-candidate.ts";
import { withSchemaErrors } from "./schema-graphql-errors.ts";
import type { SchemaCall, StreamSchemas } from "./stream-schemas.ts";

/** Which registry a subject-level call is about: a stream's (then a subject of it), or the built-in one. */
export interface SubjectTarget {
  stream?: string | null;
  subject?: string | null;
}

export interface CheckInput extends CandidateInput, SubjectTarget {
  typeName?: string | null;
  version?: number | null;
}

export interface DeleteInput extends SubjectTarget {
  subject: string;
  version?: number | null;
  permanent?: boolean | null;
}

/**
 * Subjects by name (reads, compatibility levels, checks, deletes), in the schema registry of the
 * stream named, or the registry's built-in one. Naming a stream needs its role on that stream and
 * a subject of it; otherwise the role on the registry's namespace, as the REST API asks.
 */
export class SchemaSubjects {
  constructor(private readonly schemas: StreamSchemas) {}

  async version(
    target: SubjectTarget & { subject: string },
    version: number | null | undefined,
    access: Access,
  ) {
    const call = await this.target(target, access, "reader", "reading a schema", []);
    return withSchemaErrors([], () =>
      call.manager.getSchema(target.subject, version ?? "latest", call.context),
    );
  }

  async byId(id: number, stream: string | null | undefined, access: Access): Promise<RegisteredSchema> {
    const call = await this.target({ stream }, access, "reader", "reading a schema", []);
    return withSchemaErrors([], () => call.manager.getSchemaById(id, call.context));
  }

  async compatibility(target: SubjectTarget, access: Access): Promise<CompatibilityLevel> {
    const call = await this.target(target, access, "reader", "reading a compatibility level", []);
    const { subject } = target;
    return withSchemaErrors([], () =>
      subject
        ? call.manager.getCompatibility(subject, call.context)
        : call.manager.getGlobalCompatibility(call.context),
    );
  }

  async setCompatibility(target: SubjectTarget, level: CompatibilityLevel, caller: Caller) {
    const call = await this.target(
      target,
      caller.access,
      "writer",
      "setting a compatibility level",
      ["input"],
      caller,
    );
    const { subject } = target;
    await withSchemaErrors(["input"], () =>
      subject
        ? call.manager.setCompatibility(subject, level, call.context)
        : call.manager.setGlobalCompatibility(level, call.context),
    );
    return { subject: subject ?? null, level };
  }

  /** Would `input` pass its subject's level? A subject with no versions yet takes anything. */
  async check(input: CheckInput, access: Access): Promise<CompatibilityResult & { subject: string }> {
    const call = await this.target({ stream: input.stream }, access, "reader", "checking a schema", []);
    const schema = schemaInputOf(input);
    const parsed = await parseCandidate(schema, call.manager, call.context, []);
    const subject = await this.checkedSubject(input, parsed.recordName);
    try {
      const result =
        call.builtIn && input.version == null
          ? await this.schemas.registry.registrations.test(subject, undefined, schema)
          : await call.manager.checkCompatibility(subject, input.version ?? "latest", schema, call.context);
      return { subject, ...result };
    } catch (error) {
      if (input.version == null && isSchemaManagerError(error) && error.reason === "SUBJECT_NOT_FOUND")
        return { subject, compatible: true, messages: [] };
      return withSchemaErrors([], () => Promise.reject(error));
    }
  }

  async deleteVersion(input: DeleteInput, caller: Caller) {
    const call = await this.target(input, caller.access, "writer", "deleting a schema", ["input"], caller);
    const version = input.version ?? "latest";
    const options = { permanent: input.permanent ?? false };
    const deleted = await withSchemaErrors(["input"], () =>
      call.manager.deleteSchema(input.subject, version, call.context, options),
    );
    return { subject: input.subject, versions: [deleted] };
  }

  async deleteSubject(input: DeleteInput, caller: Caller) {
    const call = await this.target(input, caller.access, "writer", "deleting a subject", ["input"], caller);
    const options = { permanent: input.permanent ?? false };
    const versions = await withSchemaErrors(["input"], () =>
      call.manager.deleteSubject(input.subject, call.context, options),
    );
    return { subject: input.subject, versions };
  }

  private async checkedSubject(input: CheckInput, recordName: string | undefined) {
    if (input.subject) return input.subject;
    if (!input.stream) {
      throw new RegistryError(ErrorCode.INVALID_INPUT, "name a subject, or a stream (and a typeName)", [
        "subject",
      ]);
    }
    const stream = await this.schemas.liveStream(input.stream, ["stream"]);
    const role =
      input.typeName == null ? { role: "key" as const } : { role: "type" as const, typeName: input.typeName };
    return this.schemas.subjectOf(stream, role, recordName, []);
  }

  private async target(
    target: SubjectTarget,
    access: Access,
    role: "reader" | "writer",
    doing: string,
    at: string[],
    actor?: Caller,
  ): Promise<SchemaCall> {
    if (!target.stream) {
      access.require(role, "", doing);
      return this.schemas.callFor(undefined, actor);
    }
    access.require(role, "", `${doing} of stream ${quote(target.stream)}`, target.stream);
    const stream = await this.schemas.liveStream(target.stream, [...at, "stream"]);
    if (target.subject) {
      const subjects = await listStreamSubjects(this.schemas.db, stream.id);
      if (!subjects.some((s) => s.subject === target.subject)) {
        throw new RegistryError(
          ErrorCode.NOT_FOUND,
          `subject ${quote(target.subject)} holds none of stream ${quote(target.stream)}'s schemas`,
          [...at, "subject"],
        );
      }
    }
    return this.schemas.callFor(stream, actor);
  }
}
