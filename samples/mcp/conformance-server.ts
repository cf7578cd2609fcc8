// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { IsString } from 'class-validator';
import {
  Ctx,
  Param,
  Prompt,
  Resource,
  Tool,
  toolResult,
  toolsFrom,
  type ToolDefinition,
  type ToolExecuteContext,
} from '../../src';
import { createMcpHttpHandler, promptsFrom, resourcesFrom, ResourceUpdates, type McpHttpHandler } from '../../src/mcp';

/** A 1×1 red PNG and a minimal WAV, as the official conformance suite's own server sends them. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const WAV_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/**
 * The tools the MCP conformance suite (`@modelcontextprotocol/conformance`) calls, each written the way an app
 * would write it: plain returns, `toolResult` parts, `ctx.log`, `ctx.progress`, a throw.
 */
export class ConformanceTools {
  @Tool({ description: 'Tests simple text content response' })
  test_simple_text(): string {
    return 'This is a simple text response for testing.';
  }

  @Tool({ description: 'Tests image content response' })
  test_image_content(): unknown {
    return toolResult.image(PNG_BASE64, 'image/png');
  }

  @Tool({ description: 'Tests audio content response' })
  test_audio_content(): unknown {
    return toolResult.audio(WAV_BASE64, 'audio/wav');
  }

  @Tool({ description: 'Tests embedded resource content response' })
  test_embedded_resource(): unknown {
    return toolResult.resource({
      uri: 'test://embedded-resource',
      mimeType: 'text/plain',
      text: 'This is an embedded resource content.',
    });
  }

  @Tool({ description: 'Tests response with multiple content types (text, image, resource)' })
  test_multiple_content_types(): unknown {
    return toolResult.content(
      'Multiple content types test:',
      toolResult.image(PNG_BASE64, 'image/png'),
      toolResult.resource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    );
  }

  @Tool({ description: 'Tests tool that emits log messages during execution' })
  async test_tool_with_logging(@Ctx() ctx: ToolExecuteContext): Promise<string> {
    ctx.log?.('info', 'Tool execution started');
    await sleep(50);
    ctx.log?.('info', 'Tool processing data');
    await sleep(50);
    ctx.log?.('info', 'Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @Tool({ description: 'Tests tool that reports progress notifications' })
  async test_tool_with_progress(@Ctx() ctx: ToolExecuteContext): Promise<string> {
    for (const progress of [0, 50, 100]) {
      ctx.progress?.({ progress, total: 100, message: `Completed step ${progress} of 100` });
      if (progress < 100) await sleep(50);
    }
    return 'Progress reported';
  }

  @Tool({ description: 'Tests error response handling' })
  test_error_handling(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }

  @Tool({ description: 'Tests elicitation: asks the user for a username and an email' })
  test_elicitation(
    @Param('message', { description: 'The message to show the user' }) message: string,
    @Ctx() ctx?: ToolExecuteContext,
  ): unknown {
    if (!ctx?.answer) return toolResult.interactive({ type: 'mcp_input', message, requestedSchema: USER_INFO });
    return `User response: ${answerText(ctx.answer)}`;
  }

  @Tool({ description: 'Tests elicitation with a default for every primitive type (SEP-1034)' })
  test_elicitation_sep1034_defaults(@Ctx() ctx?: ToolExecuteContext): unknown {
    if (!ctx?.answer) {
      return toolResult.interactive({
        type: 'mcp_input',
        message: 'Please review and update the form fields with defaults',
        requestedSchema: WITH_DEFAULTS,
      });
    }
    return `Elicitation completed: ${answerText(ctx.answer)}`;
  }

  @Tool({ description: 'Tests elicitation with the five enum forms (SEP-1330)' })
  test_elicitation_sep1330_enums(@Ctx() ctx?: ToolExecuteContext): unknown {
    if (!ctx?.answer) {
      return toolResult.interactive({
        type: 'mcp_input',
        message: 'Please select options from the enum fields',
        requestedSchema: ENUMS,
      });
    }
    return `Elicitation completed: ${answerText(ctx.answer)}`;
  }

  @Tool({ description: 'Tests SSE stream disconnection and client reconnection: the call outlasts `pollAfterMs`' })
  async test_reconnection(): Promise<string> {
    await sleep(RECONNECTION_CALL_MS);
    return 'Reconnection test completed successfully. If you received this, the client properly reconnected.';
  }
}

/** What `test_elicitation` asks for. */
const USER_INFO = {
  type: 'object',
  properties: {
    username: { type: 'string', description: "User's response" },
    email: { type: 'string', description: "User's email address" },
  },
  required: ['username', 'email'],
};

/** A default for each primitive type a form field can have: string, integer, number, enum, boolean. */
const WITH_DEFAULTS = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'User name', default: 'John Doe' },
    age: { type: 'integer', description: 'User age', default: 30 },
    score: { type: 'number', description: 'User score', default: 95.5 },
    status: {
      type: 'string',
      description: 'User status',
      enum: ['active', 'inactive', 'pending'],
      default: 'active',
    },
    verified: { type: 'boolean', description: 'Verification status', default: true },
  },
};

/** Single and multiple choice, each with and without titles, and the deprecated `enumNames`. */
const ENUMS = {
  type: 'object',
  properties: {
    untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
    titledSingle: {
      type: 'string',
      description: 'Select one option with titles',
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
    legacyEnum: {
      type: 'string',
      description: 'Select one option (legacy)',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    },
    untitledMulti: {
      type: 'array',
      description: 'Select multiple options',
      items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
    },
    titledMulti: {
      type: 'array',
      description: 'Select multiple options with titles',
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  },
};

/** The person's answer as the suite's reference server words it. */
function answerText(answer: NonNullable<ToolExecuteContext['answer']>): string {
  return `action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

/** How long `test_reconnection` runs, and after how long the server closes a call's SSE stream (`pollAfterMs`). */
const RECONNECTION_CALL_MS = 300;
const POLL_AFTER_MS = 100;

/** A hand-written tool whose JSON Schema 2020-12 (`$schema`, `$defs`, `additionalProperties`) is served as written. */
const jsonSchema202012Tool: ToolDefinition = {
  schema: {
    type: 'function',
    function: {
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)',
      parameters: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
        properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
        additionalProperties: false,
      },
    },
  },
  execute: async ({ params }) => ({ response: `JSON Schema 2020-12 tool called with: ${JSON.stringify(params)}` }),
};

/** The resources the suite reads: text, a blob, a template, and one it subscribes to. */
export class ConformanceResources {
  @Resource({
    uri: 'test://static-text',
    title: 'Static Text Resource',
    description: 'A static text resource for testing',
  })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @Resource({
    uri: 'test://static-binary',
    title: 'Static Binary Resource',
    description: 'A static binary resource (image) for testing',
    mimeType: 'image/png',
  })
  staticBinary(): Buffer {
    return Buffer.from(PNG_BASE64, 'base64');
  }

  @Resource({
    uriTemplate: 'test://template/{id}/data',
    title: 'Resource Template',
    description: 'A resource template with parameter substitution',
    mimeType: 'application/json',
  })
  template({ id }: { id: string }): string {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }

  @Resource({ uri: 'test://watched-resource', title: 'Watched Resource', description: 'A resource that changes' })
  watched(): string {
    return 'Watched resource content';
  }
}

/** The two arguments of `test_prompt_with_arguments`. */
export class TwoArgs {
  @Param({ description: 'First test argument' })
  @IsString()
  arg1!: string;

  @Param({ description: 'Second test argument' })
  @IsString()
  arg2!: string;
}

/** The URI `test_prompt_with_embedded_resource` embeds. */
export class ResourceUriArg {
  @Param({ description: 'URI of the resource to embed' })
  @IsString()
  resourceUri!: string;
}

/** The prompts the suite gets: plain, with arguments, with an embedded resource, with an image. */
export class ConformancePrompts {
  @Prompt({ title: 'Simple Test Prompt', description: 'A simple prompt without arguments' })
  test_simple_prompt(): string {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ title: 'Prompt With Arguments', description: 'A prompt with required arguments', arguments: TwoArgs })
  test_prompt_with_arguments({ arg1, arg2 }: TwoArgs): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @Prompt({
    title: 'Prompt With Embedded Resource',
    description: 'A prompt that includes an embedded resource',
    arguments: ResourceUriArg,
  })
  test_prompt_with_embedded_resource({ resourceUri }: ResourceUriArg): unknown[] {
    return [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ];
  }

  @Prompt({ title: 'Prompt With Image', description: 'A prompt that includes image content' })
  test_prompt_with_image(): unknown[] {
    return [
      { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ];
  }
}

/**
 * The server the official MCP conformance suite is run against: the tools, resources and prompts its scenarios
 * name, served by `createMcpHttpHandler` on 127.0.0.1. `updates.updated(uri)` tells subscribed clients a
 * resource changed.
 */
export function conformanceHandler(updates = new ResourceUpdates()): McpHttpHandler {
  return createMcpHttpHandler([...toolsFrom(new ConformanceTools()), jsonSchema202012Tool], {
    name: 'agentcall-conformance',
    version: '1.0.0',
    // The suite calls without credentials; nothing but this machine reaches the server.
    allowAnonymous: true,
    pollAfterMs: POLL_AFTER_MS,
    resources: resourcesFrom(new ConformanceResources()),
    prompts: promptsFrom(new ConformancePrompts()),
    resourceUpdates: updates,
  });
}

/** Listen on 127.0.0.1 (`port` 0: a free one); resolves with the MCP endpoint's URL and a `close`. */
export async function listenConformance(port = 0): Promise<{ url: string; close: () => Promise<void> }> {
  const mcp = conformanceHandler();
  const server: Server = createServer((req, res) => {
    if (req.url?.split('?')[0] === '/mcp') return void mcp(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    close: async () => {
      await mcp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function main(): Promise<void> {
  const { url } = await listenConformance(Number(process.env.PORT ?? 3000));
  console.error(`agentcall conformance server: ${url}`);
}

if (require.main === module) void main();
