import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage as getValidationStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { classChain } from '../../metadata/class-chain';
import { getMetadataStorage } from '../../metadata/metadata-storage';
import type { ParamOptions } from '../../metadata/options';
import type { PropertyMetadata } from '../../metadata/param-metadata';
import { reflectPropertyType } from '../../metadata/reflect-type';
import type { ClassRef } from '../../metadata/options';

/**
 * Everything recorded about one property of an arguments class, before any interpretation.
 *
 * @internal
 */
export type FieldFacts = {
  readonly propertyName: string;
  /** class-validator records for the property, inherited ones included. */
  readonly metas: readonly ValidationMetadata[];
  /** The property's `@Param` options, when it has one. */
  readonly options?: ParamOptions;
  readonly designType: unknown;
  /** The class named by class-transformer's `@Type(() => X)`. */
  readonly transformType?: unknown;
  /** Hidden from input by class-transformer's `@Exclude()`. */
  readonly excluded: boolean;
};

/**
 * The properties of `type` that take part in validation (a class-validator record or a `@Param`),
 * in declaration order.
 *
 * @internal
 */
export function readFieldFacts(type: ClassRef): FieldFacts[] {
  const metas = getValidationStorage().getTargetValidationMetadatas(type, '', true, false);
  const metasByName = groupByProperty(metas);
  const records = propertyRecords(type);
  const chain = classChain(type);
  const names = declarationOrder(chain, metas, records);
  return names.map((propertyName) => {
    const own = metasByName.get(propertyName) ?? [];
    const record = records.get(propertyName);
    const exclude = defaultMetadataStorage.findExcludeMetadata(type, propertyName);
    return {
      propertyName,
      metas: own,
      options: record?.options,
      designType: reflectPropertyType(type, propertyName),
      transformType: defaultMetadataStorage.findTypeMetadata(type, propertyName)?.typeFunction(),
      excluded: exclude !== undefined && exclude.options?.toPlainOnly !== true,
    };
  });
}

// A Map, not class-validator's groupByPropertyName: a property named __proto__ must not reach an object key.
function groupByProperty(metas: readonly ValidationMetadata[]): Map<string, ValidationMetadata[]> {
  const grouped = new Map<string, ValidationMetadata[]>();
  for (const meta of metas) grouped.set(meta.propertyName, [...(grouped.get(meta.propertyName) ?? []), meta]);
  return grouped;
}

/** `@Param` property records by name; a derived class's record wins over its base's. */
function propertyRecords(type: ClassRef): Map<string, PropertyMetadata> {
  const records = new Map<string, PropertyMetadata>();
  for (const cls of classChain(type).reverse()) {
    for (const record of getMetadataStorage().getProperties(cls)) records.set(record.propertyName, record);
  }
  return records;
}

// Base class fields first; within a class, class-validator's registration order, which `@Param` joins.
function declarationOrder(
  chain: readonly ClassRef[],
  metas: readonly ValidationMetadata[],
  records: ReadonlyMap<string, PropertyMetadata>,
): string[] {
  const names = new Set<string>();
  for (const cls of [...chain].reverse()) {
    for (const meta of metas) if (meta.target === cls) names.add(meta.propertyName);
  }
  for (const name of records.keys()) names.add(name);
  return [...names];
}
