// Compile-time checks of runAgentLoop's typed `output` (type-checked by `tsc --noEmit`, never run).
import type OpenAI from 'openai';
import { runAgentLoop, standardSchemaOf, type RunAgentCallProps } from '../../src';
import type { SchemaProfile } from '../../src/definitions/profiles/schema-profile';
import type { OutputStandardSchema } from '../../src/agentCall/state/output-types';

/** `true` only when `A` and `B` are the same type. */
type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
function expectType<T extends true>(_check?: T): void {}

class OrderDto {
  id!: string;
  items!: { sku: string; qty: number }[];
}

declare const client: OpenAI;
const body = { model: 'm', messages: [] };

export async function fromClass(): Promise<void> {
  const result = await runAgentLoop({ client, body, tools: [], output: OrderDto });
  expectType<Equal<typeof result.output, OrderDto | undefined>>();
  const id: string | undefined = result.output?.id;
  void id;
}

export async function fromStandardSchemaOf(): Promise<void> {
  const _result = await runAgentLoop({ client, body, tools: [], output: standardSchemaOf(OrderDto) });
  expectType<Equal<typeof _result.output, OrderDto | undefined>>();
}

declare const handMade: OutputStandardSchema<OrderDto>;
declare const asyncSchema: {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: 'mine';
    readonly validate: (value: unknown) => Promise<{ value: OrderDto } | { issues: { message: string }[] }>;
  };
  readonly jsonSchema: object;
};

export async function fromStandardSchema(): Promise<void> {
  const _result = await runAgentLoop({ client, body, tools: [], output: handMade });
  expectType<Equal<typeof _result.output, OrderDto | undefined>>();
  const _fromAsync = await runAgentLoop({ client, body, tools: [], output: asyncSchema });
  expectType<Equal<typeof _fromAsync.output, OrderDto | undefined>>();
}

export async function withoutOutput(): Promise<void> {
  const _result = await runAgentLoop({ client, body, tools: [] });
  expectType<Equal<typeof _result.output, unknown>>();
}

// Every existing use compiles unchanged: props built apart, and partial props as the queue's setup returns them.
export const partial: Partial<RunAgentCallProps> = { output: OrderDto, outputRetries: 1 };
export const plain: RunAgentCallProps = { body, tools: [], output: handMade };

// The output profiles are toolsFrom's profiles, no more and no fewer.
expectType<Equal<NonNullable<RunAgentCallProps['outputProfile']>, SchemaProfile>>();

// @ts-expect-error an output must be a class or a Standard Schema
export const wrong = runAgentLoop({ client, body, tools: [], output: { id: 'string' } });
