import { Logger } from '@nestjs/common';
import { definitionWarnings, schemaReport, type ClassType, type SchemaProfile } from '../index';
import type { AgentToolsModuleOptions } from './agent-tools.options';

type DefinitionWarning = ReturnType<typeof definitionWarnings>[number];
type SchemaOmission = ReturnType<typeof schemaReport>[number];

/**
 * Log, when the module's `schemaReport` option asks for it, every keyword the chosen profiles leave out of the
 * tool schemas of `types` (one message per profile, one line per keyword), and warn once per definition warning
 * (a tool without a description).
 *
 * @internal
 */
export function logSchemaReport(
  types: readonly ClassType[],
  options: AgentToolsModuleOptions,
  logger: Pick<Logger, 'log' | 'warn'> = new Logger('AgentToolsModule'),
): void {
  const requested = options.schemaReport;
  if (requested === undefined || requested === false) return;
  const profiles: readonly SchemaProfile[] = requested === true ? [options.profile ?? 'openai'] : [requested].flat();
  const report = schemaReport(types, { profile: profiles, strict: options.strict });
  for (const profile of profiles) {
    const omissions = report.filter((omission) => omission.profile === profile);
    logger.log(
      omissions.length === 0
        ? `Schema profile '${profile}': the tool schemas carry every constraint`
        : `Schema profile '${profile}' leaves ${omissions.length} keyword(s) out of the tool schemas; validation still enforces them:\n${omissions.map(line).join('\n')}`,
    );
  }
  for (const warning of definitionWarnings(types)) logger.warn(warningLine(warning));
}

function warningLine({ className, methodName, tool, message }: DefinitionWarning): string {
  return `${className}.${methodName} (tool ${tool}): ${message}`;
}

function line({ tool, path, keyword, value, statedAs }: SchemaOmission): string {
  const stated = statedAs === undefined ? 'not stated' : `described as "${statedAs}"`;
  return `  ${tool} ${path || '(arguments)'}: ${keyword} ${JSON.stringify(value)}, ${stated}`;
}
