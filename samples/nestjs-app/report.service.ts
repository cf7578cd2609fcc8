import { Inject, Injectable, Optional } from '@nestjs/common';
import type OpenAI from 'openai';
import { OutputValidationError, getErrText, runAgentLoop } from '../../src';
import type { AgentStopReason, RunBudget, Wire } from '../../src';
import { ToolRegistry } from '../../src/nestjs';
import { WeatherTools } from '../tools';
import { MODEL_NAME, OPENAI, WIRE } from './agent.tokens';
import { WeatherReportDto } from './weather-report.dto';

/** The budget of one report, as a provider: an app may give its own. */
export const REPORT_BUDGET = Symbol('REPORT_BUDGET');

/** At most 3 tool calls and 20,000 tokens per report, whichever is spent first. */
const DEFAULT_REPORT_BUDGET: RunBudget = { toolCalls: 3, totalTokens: 20_000 };

/** Why a run gave no report, for the HTTP layer to answer with. */
export type ReportFailure = {
  stopReason: AgentStopReason;
  message: string;
  /** The last answer's `path: message` lines, when it did not validate (`'output_invalid'`). */
  problems?: readonly string[];
  spent: { toolCalls: number; totalTokens: number };
};

/** A report, or why there is none. */
export type ReportOutcome = { ok: true; report: WeatherReportDto } | { ok: false; failure: ReportFailure };

/** Writes a weather report with the weather tools: a typed answer, under a budget. */
@Injectable()
export class ReportService {
  constructor(
    private readonly registry: ToolRegistry,
    @Inject(OPENAI) private readonly client: OpenAI,
    @Inject(MODEL_NAME) private readonly model: string,
    @Optional() @Inject(REPORT_BUDGET) private readonly budget: RunBudget = DEFAULT_REPORT_BUDGET,
    @Optional() @Inject(WIRE) private readonly wire: { wire?: Wire } = {},
  ) {}

  async report(city: string): Promise<ReportOutcome> {
    const result = await runAgentLoop({
      client: this.client,
      body: {
        model: this.model,
        messages: [
          {
            role: 'system',
            content: 'Call get_weather for the city, then answer with a report built from its result.',
          },
          { role: 'user', content: `A weather report for ${city}` },
        ],
      },
      tools: this.registry.getToolsOf(WeatherTools),
      output: WeatherReportDto,
      budget: this.budget,
      maxRunAgentTimes: 8,
      ...this.wire,
    });
    // `result.output` is a WeatherReportDto: validated, an instance of the class, no cast.
    if (result.output) return { ok: true, report: result.output };
    const spent = {
      toolCalls: result.state.spent?.toolCalls ?? 0,
      totalTokens: result.inputTokens + result.outputTokens,
    };
    const { stopReason, error } = result;
    if (stopReason === 'budget') return { ok: false, failure: { stopReason, message: 'The budget is spent', spent } };
    if (OutputValidationError.isInstance(error)) {
      const message = 'The model gave no valid report';
      return { ok: false, failure: { stopReason, message, problems: error.lines, spent } };
    }
    const message = error !== undefined ? getErrText(error) : `The run ended with ${stopReason}`;
    return { ok: false, failure: { stopReason, message, spent } };
  }
}
