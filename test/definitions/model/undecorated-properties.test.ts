import 'reflect-metadata';
import * as agentcall from '../../../src';
import type { ToolDefinition } from '../../../src';
import { compileFixture as compile } from '../../helpers/compile-fixture';

/** This project's setting, and `tsc --init`'s for ES2022+ targets. */
const settings = [false, true] as const;

function toolsOf(exports: Record<string, unknown>): ToolDefinition[] {
  const Tools = exports.Tools as new () => object;
  return agentcall.toolsFrom(new Tools());
}

const CHECKED_ONLY = `
import { Tool, Param } from 'agentcall';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class PostDto {
  @Param({ description: 'Title' }) title!: string;
  @IsOptional() @IsString() @MaxLength(20) body?: string;
}

export class Tools {
  @Tool({ description: 'Post' })
  post(@Param() dto: PostDto) {
    return dto.title + ':' + (dto.body ?? '-');
  }
}
`;

const UNDECORATED = `
import { Tool, Param } from 'agentcall';

export class PostDto {
  @Param({ description: 'Title' }) title!: string;
  body?: string;
}

export class Tools {
  @Tool({ description: 'Post' })
  post(@Param() dto: PostDto) {
    return dto.title + ':' + (dto.body ?? '-');
  }
}
`;

const INITIALISED = `
import { Tool, Param } from 'agentcall';

export class PostDto {
  @Param({ description: 'Title' }) title!: string;
  draft = false;
}

export class Tools {
  @Tool({ description: 'Post' })
  post(@Param() dto: PostDto) {
    return dto.title;
  }
}
`;

describe.each(settings)('DTO properties without @Param (useDefineForClassFields: %s)', (useDefine) => {
  it('a property with class-validator checks but no @Param is described from those checks, and calls without it pass', async () => {
    const [tool] = toolsOf(compile(CHECKED_ONLY, useDefine));
    expect(tool.schema.function.parameters).toMatchObject({
      properties: { title: { type: 'string', description: 'Title' }, body: { type: 'string', maxLength: 20 } },
      required: ['title'],
    });
    expect(tool.parseParams!('{"title":"Hi"}')).toMatchObject({ success: true, data: { title: 'Hi' } });
    expect(tool.parseParams!('{"title":"Hi","body":"text"}')).toMatchObject({ success: true });
    expect(tool.parseParams!('{"title":"Hi","body":3}')).toMatchObject({ success: false });
  });

  // One outcome whatever the compiler's flag: the property is ignored on both sides and reported as a warning.
  it.each([
    ['a declared-only', UNDECORATED, 'body'],
    ['an initialised', INITIALISED, 'draft'],
  ])(
    '%s property with no decorator at all: not in the schema, refused if sent, left out of the DTO, warned about where visible',
    async (_kind, source, property) => {
      const exports = compile(source, useDefine);
      const [tool] = toolsOf(exports);
      expect(Object.keys(tool.schema.function.parameters?.properties as object)).toEqual(['title']);
      const parsed = tool.parseParams!('{"title":"Hi"}');
      expect(parsed).toMatchObject({ success: true });
      expect(parsed.success && Object.keys(parsed.data as object)).toEqual(['title']);
      const sent = tool.parseParams!(JSON.stringify({ title: 'Hi', [property]: 'x' }));
      expect(sent).toEqual({
        success: false,
        errorMessage: expect.stringContaining(`property ${property} should not exist`),
      });
      // A declared-only field compiled without useDefineForClassFields leaves no trace at run time: nothing can see it
      // to report it. Wherever it exists at run time, it is reported.
      const visible = useDefine || property === 'draft';
      expect(agentcall.definitionWarnings([exports.Tools as object])).toEqual(
        visible
          ? [
              {
                tool: 'post',
                className: 'Tools',
                methodName: 'post',
                message: expect.stringMatching(
                  new RegExp(`^PostDto\\.${property}: has no @Param or class-validator decorator`),
                ),
              },
            ]
          : [],
      );
      const Tools = exports.Tools as new () => object;
      const [bound] = agentcall.toolsFrom(new Tools());
      const call = { id: 'c1', type: 'function' as const, function: { name: 'post', arguments: '{"title":"Hi"}' } };
      const ran = await agentcall.runTool({ call, messages: [], tools: [bound] });
      expect(ran.response).toBe(property === 'body' ? 'Hi:-' : 'Hi');
    },
  );
});
