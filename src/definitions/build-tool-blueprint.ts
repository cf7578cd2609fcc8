import { TOOL_NAME_PATTERN } from '../constants';
import type { ToolDefinitionProblem } from '../errors/tool-definition.error';
import type { ChatCompletionTool } from '../llm/type';
import type { ClassType } from '../metadata/options';
import type { ToolMetadata } from '../metadata/tool-metadata';
import { toolSafetyProblems } from '../toolCall/check-tool-safety';
import type { ToolParseResult } from '../toolCall/type';
import { buildParametersSchema } from './schema/build-parameters-schema';
import { collectClassGraph } from './model/collect-class-graph';
import { deepFreeze } from '../utils/deep-freeze';
import { getClassModel } from './model/get-class-model';
import type { JsonSchema } from './schema/json-schema';
import { createParseParams } from './validation/parse-params';
import { planArguments, type ArgumentSlot } from './plan-arguments';
import { applyProfile, type KeywordOmission } from './profiles/apply-profile';
import { PROFILE_RULES } from './profiles/profile-rules';
import type { SchemaProfile } from './profiles/schema-profile';

/**
 * A tool's schema as one profile writes it, and what that profile left out or cannot express.
 *
 * @internal
 */
export type ProfiledTool = {
  /** Frozen: shared by every instance of the class. */
  readonly schema: ChatCompletionTool;
  readonly omissions: readonly KeywordOmission[];
  /** Definition problems that only count when the tool is sent in this profile. */
  readonly problems: readonly ToolDefinitionProblem[];
};

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
  readonly idempotent?: boolean;
  readonly concurrency?: number;
  readonly retry?: ToolMetadata['retry'];
  readonly repairArguments?: ToolMetadata['repairArguments'];
  readonly needsApproval?: ToolMetadata['needsApproval'];
  readonly deferred?: boolean;
  readonly title?: string;
  readonly annotations?: ToolMetadata['annotations'];
  readonly task?: boolean;
  /** The JSON Schema of the declared result class (`@Tool({ output })`). */
  readonly outputSchema?: JsonSchema;
  readonly slots: readonly ArgumentSlot[];
  readonly parseParams: (rawArgs: string) => ToolParseResult<object>;
  /** The schema in one profile, built on first use and kept: once per class and profile. */
  readonly schemaFor: (profile: SchemaProfile) => ProfiledTool;
  readonly problems: readonly ToolDefinitionProblem[];
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
    ...toolSafetyProblems(tool).map((message) => at(message)),
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
  const profiled = new Map<SchemaProfile, ProfiledTool>();
  const schemaFor = (profile: SchemaProfile): ProfiledTool => {
    let built = profiled.get(profile);
    if (built === undefined) {
      const rules = PROFILE_RULES[profile];
      const result = applyProfile(parameters, rules);
      built = {
        schema: toolSchema(tool, result.schema, rules.strictForm),
        omissions: deepFreeze(result.omissions),
        problems: result.problems.map((message) => at(message)),
      };
      profiled.set(profile, built);
    }
    return built;
  };
  return {
    methodName: tool.methodName,
    argsClass: plan.argsClass,
    strict: tool.strict,
    timeoutMs: tool.timeoutMs,
    idempotent: tool.idempotent,
    concurrency: tool.concurrency,
    retry: tool.retry,
    repairArguments: tool.repairArguments,
    needsApproval: tool.needsApproval,
    deferred: tool.deferred,
    title: tool.title,
    annotations: tool.annotations,
    task: tool.task,
    ...(tool.output && { outputSchema: deepFreeze(buildParametersSchema(collectClassGraph(tool.output))) }),
    slots: plan.slots,
    parseParams: createParseParams(tool.name, plan.argsClass),
    schemaFor,
    problems,
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
