import type { ClassType } from '../../metadata/options';
import type { FieldShape } from './field-model';
import { getClassModel } from './get-class-model';

/**
 * Every class reachable from an arguments class through its fields.
 *
 * @internal
 */
export type ClassGraph = {
  /** The root first, then each nested class once, in depth-first order. */
  readonly classes: readonly ClassType[];
  /** Classes that reach themselves again (trees, linked lists): these need `$ref`s instead of inlining. */
  readonly recursive: ReadonlySet<ClassType>;
};

/**
 * Walk the nested DTO classes of `root`.
 *
 * @example collectClassGraph(OrderDto) // { classes: [OrderDto, LineItem, Address], recursive: Set {} }
 *
 * @internal
 */
export function collectClassGraph(root: ClassType): ClassGraph {
  const classes: ClassType[] = [];
  const recursive = new Set<ClassType>();
  const onPath = new Set<ClassType>();
  const visit = (type: ClassType): void => {
    if (onPath.has(type)) recursive.add(type);
    if (classes.includes(type)) return;
    classes.push(type);
    onPath.add(type);
    for (const field of getClassModel(type).fields) nestedClasses(field.shape).forEach(visit);
    onPath.delete(type);
  };
  visit(root);
  return { classes, recursive };
}

function nestedClasses(shape: FieldShape): ClassType[] {
  if (shape.kind === 'class') return [shape.type];
  return shape.kind === 'array' ? nestedClasses(shape.items) : [];
}
