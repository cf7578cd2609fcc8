import { IS_OPTIONAL } from 'class-validator';
import type { ClassType } from '../../metadata/options';
import type { ClassModel, FieldModel, FieldProblem } from './field-model';
import { readFieldFacts } from './read-field-facts';
import { resolveFieldShape } from './resolve-field-shape';
import { undecoratedFields } from './undecorated-fields';
import type { ClassRef } from '../../metadata/options';

const models = new WeakMap<ClassRef, ClassModel>();

/**
 * The fields of an arguments class, resolved once per class. Reading only: the class is never changed.
 *
 * @internal
 */
export function getClassModel(type: ClassType): ClassModel {
  const cached = models.get(type);
  if (cached) return cached;
  const fields: FieldModel[] = [];
  const problems: FieldProblem[] = [];
  const allFacts = readFieldFacts(type);
  for (const facts of allFacts) {
    if (facts.excluded) continue;
    const shape = resolveFieldShape(facts);
    if (typeof shape === 'string') {
      problems.push({ propertyName: facts.propertyName, message: shape });
      continue;
    }
    const field: FieldModel = {
      name: facts.propertyName,
      optional:
        facts.options?.optional === true ||
        facts.options?.default !== undefined ||
        facts.metas.some((meta) => meta.name === IS_OPTIONAL),
      description: facts.options?.description,
      examples: facts.options?.examples,
      default: facts.options?.default,
      shape,
    };
    fields.push(field);
  }
  const ignored = undecoratedFields(type, new Set(allFacts.map((facts) => facts.propertyName)));
  const model: ClassModel = { type, fields, problems, ignored };
  models.set(type, model);
  return model;
}
