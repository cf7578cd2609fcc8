import { tool } from 'ai';
import { standardSchemaOf } from '../../src';
import { CalculationDto, CalculatorTools } from '../tools';

/**
 * The calculator's DTO as the Vercel AI SDK's tool input: the same class is the JSON Schema the model sees and
 * the class-validator check its call goes through; `input` arrives as a validated `CalculationDto`.
 */
export const calculateTool = tool({
  description: 'Apply one arithmetic operation to two numbers.',
  inputSchema: standardSchemaOf(CalculationDto),
  execute: async (input) => new CalculatorTools().calculate(input),
});

/** A decorated tool's inline parameters work too: `standardSchemaOf(ToolsClass, 'methodName')`. */
export const sumSchema = standardSchemaOf(CalculatorTools, 'sum');
