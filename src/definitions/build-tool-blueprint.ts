import { TOOL_NAME_PATTERN } from '../constants';
import type { ToolDefinitionProblem } from '../errors/tool-definition.error';
import type { ChatCompletionTool } from '../llm/type';
import type { ClassType } from '../metadata/options';
import type { ToolMetadata } from '../metadata/tool-metadata';
import type { ToolParseResult } from '../toolCall/type';
import { buildParametersSchema } from './schema/build-parameters-schema';
import { collectClassGraph } from './model/collect-class-graph';
import { deepFreeze } from '../utils/deep-freeze';
import { getClassModel } from './model/get-class-model';
import type { JsonSchema } from './schema/json-schema';
import { createParseParams } from './validation/parse-params';
import { planArguments, type ArgumentSlot } from './plan-arguments';
import { toStrictSchema } from './schema/to-strict-schema';

/**
 * Everything about one `@Tool` method that does not depend on the instance: built once per class.
 *
 * @internal
 */
export type ToolBlueprint = {
  readonly methodName: string;
  /** The class the arguments are validated against (the DTO, or one synthesized from named parameters). */
  readonly argsClass: ClassType;
  readonly strict?: boolean;
  readonly timeoutMs?: number;
  readonly needsApproval?: ToolMetadata['needsApproval'];
  readonly slots: readonly ArgumentSlot[];
  readonly parseParams: (rawArgs: string) => ToolParseResult<object>;
  /** The frozen schema sent to the model, without and with strict mode. */
  readonly schemas: { readonly loose: ChatCompletionTool; readonly strict: ChatCompletionTool };
  readonly problems: readonly ToolDefinitionProblem[];
  /** Problems that only count when the tool ends up strict. */
  readonly strictProblems: readonly ToolDefinitionProblem[];
};

/**
 * Build the instance-independent part of a tool: its arguments class, schemas, parser and problems.
 * `className` is the class the instance belongs to, which may extend the class declaring the method.
 *
 * @internal
 */
export function buildToolBlueprint(className: string, tool: ToolMetadata): ToolBlueprint {
  const at = (message: string, parameterIndex?: number): ToolDefinitionProblem => ({
    className,
    methodName: tool.methodName,
    ...(parameterIndex !== undefined && { parameterIndex }),
    message,
  });
  const plan = planArguments(tool.target, tool.methodName);
  const graph = collectClassGraph(plan.argsClass);
  const problems = [
    ...(TOOL_NAME_PATTERN.test(tool.name)
      ? []
      : [at(`tool name "${tool.name}" is invalid; it must match ${TOOL_NAME_PATTERN}`)]),
    ...plan.problems.map((problem) => at(problem.message, problem.parameterIndex)),
    ...graph.classes.flatMap((type) =>
      getClassModel(type).problems.map(({ propertyName, message }) =>
        type === plan.argsClass && plan.synthesized
          ? at(`parameter "${propertyName}": ${message}`, plan.indexOf.get(propertyName))
          : at(`${type.name}.${propertyName}: ${message}`, plan.indexOf.get('')),
      ),
    ),
  ];
  const parameters = buildParametersSchema(graph, plan.description);
  const strict = toStrictSchema(parameters);
  return {
    methodName: tool.methodName,
    argsClass: plan.argsClass,
    strict: tool.strict,
    timeoutMs: tool.timeoutMs,
    needsApproval: tool.needsApproval,
    slots: plan.slots,
    parseParams: createParseParams(tool.name, plan.argsClass),
    schemas: { loose: toolSchema(tool, parameters, false), strict: toolSchema(tool, strict.schema, true) },
    problems,
    strictProblems: strict.problems.map((message) => at(message)),
  };
}

function toolSchema(tool: ToolMetadata, parameters: JsonSchema, strict: boolean): ChatCompletionTool {
  return deepFreeze({
    type: 'function',
    function: {
      name: tool.name,
      ...(tool.description !== undefined && { description: tool.description }),
      parameters,
      ...(strict && { strict: true }),
    },
  });
}
