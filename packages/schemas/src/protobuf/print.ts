import protobuf from "protobufjs";

/**
 * The normalized text of a .proto file: its declarations printed one way whatever the spacing,
 * comments and option order of the source (the identity of a Protobuf schema).
 */
export function printProtoFile(
  root: protobuf.Root,
  syntax: string,
  packageName: string,
  imports: readonly string[],
): string {
  const lines = [`${syntax};`];
  if (packageName !== "") lines.push(`package ${packageName};`);
  for (const path of [...imports].sort()) lines.push(`import "${path}";`);
  const namespace = packageName === "" ? root : root.lookup(packageName);
  if (namespace instanceof protobuf.Namespace) {
    lines.push(...printOptions(namespace.options, ""));
    lines.push(...printNested(namespace, ""));
  }
  return `${lines.join("\n")}\n`;
}

function printNested(namespace: protobuf.Namespace, indent: string): string[] {
  const lines: string[] = [];
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) lines.push(...printMessage(nested, indent));
    else if (nested instanceof protobuf.Enum) lines.push(...printEnum(nested, indent));
    else if (nested instanceof protobuf.Service) lines.push(...printService(nested, indent));
    else if (nested instanceof protobuf.Field) lines.push(...printExtension(nested, indent));
  }
  return lines;
}

function printMessage(type: protobuf.Type, indent: string): string[] {
  const inner = `${indent}  `;
  const lines = [`${indent}message ${type.name} {`];
  lines.push(...printOptions(type.options, inner));
  lines.push(...printReserved(type.reserved, inner));
  for (const [from, to] of (type.extensions ?? []) as number[][]) {
    lines.push(`${inner}extensions ${from} to ${to};`);
  }
  for (const field of type.fieldsArray) {
    if (!field.partOf || isSynthetic(field.partOf)) lines.push(inner + printField(field));
  }
  for (const oneof of type.oneofsArray) {
    if (isSynthetic(oneof)) continue;
    lines.push(`${inner}oneof ${oneof.name} {`);
    lines.push(...printOptions(oneof.options, `${inner}  `));
    for (const field of oneof.fieldsArray) lines.push(`${inner}  ${printField(field)}`);
    lines.push(`${inner}}`);
  }
  lines.push(...printNested(type, inner));
  lines.push(`${indent}}`);
  return lines;
}

function printField(field: protobuf.Field): string {
  const type = field instanceof protobuf.MapField ? `map<${field.keyType}, ${field.type}>` : field.type;
  const options = { ...field.options };
  const optional = options["proto3_optional"] === true;
  delete options["proto3_optional"];
  const label = field.rule ?? (optional ? "optional" : undefined);
  const entries = Object.keys(options)
    .sort()
    .map((key) => `${key} = ${printValue(options[key])}`);
  const suffix = entries.length > 0 ? ` [${entries.join(", ")}]` : "";
  return `${label ? `${label} ` : ""}${type} ${field.name} = ${field.id}${suffix};`;
}

function printEnum(type: protobuf.Enum, indent: string): string[] {
  const inner = `${indent}  `;
  const lines = [`${indent}enum ${type.name} {`];
  lines.push(...printOptions(type.options, inner));
  lines.push(...printReserved(type.reserved, inner));
  for (const [name, number] of Object.entries(type.values)) {
    const options = type.valuesOptions?.[name];
    const entries = Object.keys(options ?? {})
      .sort()
      .map((key) => `${key} = ${printValue(options?.[key])}`);
    lines.push(`${inner}${name} = ${number}${entries.length > 0 ? ` [${entries.join(", ")}]` : ""};`);
  }
  lines.push(`${indent}}`);
  return lines;
}

function printService(service: protobuf.Service, indent: string): string[] {
  const inner = `${indent}  `;
  const lines = [`${indent}service ${service.name} {`, ...printOptions(service.options, inner)];
  for (const method of service.methodsArray) {
    const request = `${method.requestStream ? "stream " : ""}${method.requestType}`;
    const response = `${method.responseStream ? "stream " : ""}${method.responseType}`;
    const options = printOptions(method.options, `${inner}  `);
    const head = `${inner}rpc ${method.name} (${request}) returns (${response})`;
    lines.push(...(options.length === 0 ? [`${head};`] : [`${head} {`, ...options, `${inner}}`]));
  }
  lines.push(`${indent}}`);
  return lines;
}

function printExtension(field: protobuf.Field, indent: string): string[] {
  const name = field.name.startsWith(".") ? field.name.slice(1) : field.name;
  return [
    `${indent}extend ${field.extend ?? ""} {`,
    `${indent}  ${printField(field).replace(field.name, name)}`,
    `${indent}}`,
  ];
}

function printOptions(options: Record<string, unknown> | undefined, indent: string): string[] {
  return Object.keys(options ?? {})
    .sort()
    .map((key) => `${indent}option ${key} = ${printValue(options?.[key])};`);
}

function printReserved(reserved: Array<number[] | string> | undefined, indent: string): string[] {
  return (reserved ?? []).map((entry) =>
    typeof entry === "string"
      ? `${indent}reserved "${entry}";`
      : `${indent}reserved ${entry[0] === entry[1] ? `${entry[0]}` : `${entry[0]} to ${entry[1]}`};`,
  );
}

function printValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? "");
}

function isSynthetic(oneof: protobuf.OneOf): boolean {
  return oneof.fieldsArray.length === 1 && oneof.fieldsArray[0]?.options?.["proto3_optional"] === true;
}
