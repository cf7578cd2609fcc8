import 'reflect-metadata';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { IsIn, IsString } from 'class-validator';
import { Param, Prompt, Resource, Tool, toolsFrom } from '../../src';
import { createMcpServer, promptsFrom, resourcesFrom } from '../../src/mcp';

const LOGO = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);

class Docs {
  @Resource({ uri: 'docs://readme', mimeType: 'text/markdown', description: 'The readme' })
  readme(): string {
    return '# Hello';
  }

  @Resource({ uri: 'docs://logo', mimeType: 'image/png' })
  logo(): Uint8Array {
    return LOGO;
  }

  @Resource({ uri: 'docs://both' })
  both(uri: string) {
    return {
      contents: [
        { uri, text: 'one' },
        { uri, text: 'two' },
      ],
    };
  }

  @Resource({ uri: 'docs://broken' })
  broken(): string {
    throw new Error('disk gone');
  }

  @Resource({ uriTemplate: 'docs://pages/{slug}', name: 'page', complete: { slug: ['intro', 'install', 'usage'] } })
  page({ slug }: { slug: string }): string {
    return `page ${slug}`;
  }
}

class ReviewArgs {
  @Param({ description: 'The language of the code', enum: ['typescript', 'python', 'tsql'] })
  @IsString()
  @IsIn(['typescript', 'python', 'tsql'])
  language!: string;

  @Param({ description: 'What to look at', optional: true })
  @IsString()
  focus?: string;
}

class Prompts {
  @Prompt({ name: 'review', description: 'Review code', arguments: ReviewArgs })
  review({ language, focus }: ReviewArgs): string {
    return `Review this ${language} code${focus ? ` for ${focus}` : ''}.`;
  }

  @Prompt({ complete: { topic: (value: string) => ['alpha', 'beta'].map((v) => `${value}${v}`) } })
  chat() {
    return [
      { role: 'user' as const, content: { type: 'text' as const, text: 'Hi' } },
      { role: 'assistant' as const, content: { type: 'text' as const, text: 'Hello' } },
    ];
  }

  @Prompt({ name: 'whole' })
  whole() {
    return { description: 'built by hand', messages: [{ role: 'user', content: { type: 'text', text: 'x' } }] };
  }
}

class NoTools {
  @Tool({ description: 'Nothing' })
  noop(): string {
    return 'ok';
  }
}

async function connect() {
  const server = createMcpServer(toolsFrom(new NoTools()), {
    name: 'docs',
    version: '1.0.0',
    resources: resourcesFrom(new Docs()),
    prompts: promptsFrom(new Prompts()),
  });
  const client = new Client({ name: 'test', version: '0.0.1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return { client, close: () => Promise.all([client.close(), server.close()]) };
}

describe('@Resource served', () => {
  it('announces resources with subscribe, prompts and completions', async () => {
    const { client, close } = await connect();
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { subscribe: true },
      prompts: {},
      completions: {},
    });
    await close();
  });

  it('lists fixed resources and templates apart', async () => {
    const { client, close } = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['docs://readme', 'docs://logo', 'docs://both', 'docs://broken']);
    expect(resources[0]).toEqual({
      uri: 'docs://readme',
      name: 'readme',
      description: 'The readme',
      mimeType: 'text/markdown',
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([{ uriTemplate: 'docs://pages/{slug}', name: 'page' }]);
    await close();
  });

  it('reads a string as text with its mimeType, bytes as a blob, a result as given', async () => {
    const { client, close } = await connect();
    expect((await client.readResource({ uri: 'docs://readme' })).contents).toEqual([
      { uri: 'docs://readme', mimeType: 'text/markdown', text: '# Hello' },
    ]);
    expect((await client.readResource({ uri: 'docs://logo' })).contents).toEqual([
      { uri: 'docs://logo', mimeType: 'image/png', blob: Buffer.from(LOGO).toString('base64') },
    ]);
    expect((await client.readResource({ uri: 'docs://both' })).contents).toHaveLength(2);
    await close();
  });

  it("gives a template's method its variables as an object", async () => {
    const { client, close } = await connect();
    expect((await client.readResource({ uri: 'docs://pages/setup' })).contents).toEqual([
      { uri: 'docs://pages/setup', mimeType: 'text/plain', text: 'page setup' },
    ]);
    await close();
  });

  it('answers an unknown URI and a failing method with protocol errors, no stack', async () => {
    const { client, close } = await connect();
    await expect(client.readResource({ uri: 'docs://nope' })).rejects.toMatchObject({ code: -32602 });
    const failed = client.readResource({ uri: 'docs://broken' });
    await expect(failed).rejects.toMatchObject({ code: -32603 });
    await expect(failed).rejects.toThrow('disk gone');
    await expect(failed.catch((e: Error) => e.message)).resolves.not.toMatch(/\bat .*\.ts:\d+/);
    await close();
  });

  it('accepts subscribe and unsubscribe', async () => {
    const { client, close } = await connect();
    await expect(client.subscribeResource({ uri: 'docs://readme' })).resolves.toEqual({});
    await expect(client.unsubscribeResource({ uri: 'docs://readme' })).resolves.toEqual({});
    await close();
  });

  it('completes a template variable from its complete list, by prefix', async () => {
    const { client, close } = await connect();
    const { completion } = await client.complete({
      ref: { type: 'ref/resource', uri: 'docs://pages/{slug}' },
      argument: { name: 'slug', value: 'in' },
    });
    expect(completion.values).toEqual(['intro', 'install']);
    await close();
  });
});

describe('@Prompt served', () => {
  it('lists prompts with their arguments from the DTO', async () => {
    const { client, close } = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === 'review')).toEqual({
      name: 'review',
      description: 'Review code',
      arguments: [
        { name: 'language', description: 'The language of the code', required: true },
        { name: 'focus', description: 'What to look at', required: false },
      ],
    });
    expect(prompts.map((p) => p.name)).toEqual(['review', 'chat', 'whole']);
    await close();
  });

  it('gets a string as one user message, built from the validated DTO', async () => {
    const { client, close } = await connect();
    const result = await client.getPrompt({ name: 'review', arguments: { language: 'python', focus: 'errors' } });
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Review this python code for errors.' } },
    ]);
    await close();
  });

  it('gets messages and whole results as returned', async () => {
    const { client, close } = await connect();
    expect((await client.getPrompt({ name: 'chat' })).messages).toHaveLength(2);
    expect(await client.getPrompt({ name: 'whole' })).toMatchObject({ description: 'built by hand' });
    await close();
  });

  it('refuses invalid arguments and unknown prompts with -32602', async () => {
    const { client, close } = await connect();
    const invalid = client.getPrompt({ name: 'review', arguments: { language: 'cobol' } });
    await expect(invalid).rejects.toMatchObject({ code: -32602 });
    await expect(invalid).rejects.toThrow(/language/);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: -32602 });
    await close();
  });

  it("completes an argument from its DTO field's enum by prefix, or from a complete function", async () => {
    const { client, close } = await connect();
    const fromEnum = await client.complete({
      ref: { type: 'ref/prompt', name: 'review' },
      argument: { name: 'language', value: 't' },
    });
    expect(fromEnum.completion.values).toEqual(['typescript', 'tsql']);
    const fromFunction = await client.complete({
      ref: { type: 'ref/prompt', name: 'chat' },
      argument: { name: 'topic', value: 'x-' },
    });
    expect(fromFunction.completion.values).toEqual(['x-alpha', 'x-beta']);
    await close();
  });
});
